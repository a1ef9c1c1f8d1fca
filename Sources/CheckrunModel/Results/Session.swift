import Foundation

/// One tester's sitting: a release, a build, a device, and the checks chosen to walk in order.
public struct Session: Sendable, Equatable {
    public var id: UUID
    public var release: String
    public var build: String
    public var device: String
    public var osVersion: String
    public var tester: String
    /// The checks to walk, by `protocol/check` name, in order.
    public var plan: [String]
    public var startedAt: Date
    public var finishedAt: Date?

    public init(
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
    public var shortID: String { String(id.lowercasedText.prefix(8)) }
}
