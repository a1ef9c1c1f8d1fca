import Foundation

/// One tester's sitting: a release, a build, a device, and the checks chosen to walk in order.
package struct Session: Sendable, Equatable {
    package var id: UUID
    package var release: String
    package var build: String
    package var device: String
    package var osVersion: String
    package var tester: String
    /// The checks to walk, by `protocol/check` name, in order.
    package var plan: [String]
    package var startedAt: Date
    package var finishedAt: Date?

    package init(
        id: UUID, release: String, build: String, device: String = "", osVersion: String = "",
        tester: String = "", plan: [String], startedAt: Date, finishedAt: Date? = nil
    ) {
        self.id = id
        self.release = release
        self.build = build
        self.device = device
        self.osVersion = osVersion
        self.tester = tester
        self.plan = plan
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }

    /// The first eight hex digits of the id: what a tester types to resume.
    package var shortID: String { String(id.lowercasedText.prefix(8)) }
}

extension Session {
    /// The plan as the store keeps it: compact JSON, a list of check names.
    package static func storedPlan(_ plan: [String]) -> String {
        JSONWriter.compact(.array(plan.map { JSONNode(.string($0)) }))
    }

    /// The plan a stored plan text holds (nothing, when it is not a list of names).
    package static func plan(stored text: String) -> [String] {
        ((try? JSONParser.parse(text))?.arrayValue ?? []).compactMap(\.stringValue)
    }
}
