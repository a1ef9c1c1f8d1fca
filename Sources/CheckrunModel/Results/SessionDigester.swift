/// The digests of many sessions at once (a report checks every session it does not cite, see
/// `ResultStore.outsideSessionProblems`): most sessions share a plan of a hundred checks or more,
/// so each plan is read from its stored text and laid out once, and each session's canonical
/// text is its own fields with that layout put in place. The bytes are `Session.canonicalText`'s
/// exactly (a test holds the two together).
package struct SessionDigester {
    /// By stored plan text: the plan, and its value as `canonicalText` lays it out.
    private var plans: [String: (plan: [String], layout: [UInt8])] = [:]

    package init() {}

    /// The plan a stored plan text holds, read once per distinct text.
    package mutating func plan(stored text: String) -> [String] {
        entry(text).plan
    }

    /// `session.digest`, for a session whose plan was stored as `storedPlan`.
    package mutating func digest(of session: Session, storedPlan: String) -> String {
        let layout = entry(storedPlan).layout
        var withoutPlan = session
        withoutPlan.plan = []
        var bytes = Array(withoutPlan.canonicalText.utf8)
        // Keys and labels are written quoted and escaped, so only the member itself reads so.
        if let place = bytes.withUnsafeBytes({ text in Self.emptyPlanMember.withUnsafeBytes { text.firstOffset(of: $0) } }) {
            let value = place + Self.emptyPlanMember.count - 4
            bytes.replaceSubrange(value..<value + 2, with: layout)
        }
        return SHA256.hex(bytes: bytes)
    }

    private mutating func entry(_ text: String) -> (plan: [String], layout: [UInt8]) {
        if let known = plans[text] { return known }
        let plan = Session.plan(stored: text)
        // The array as the writer lays it out at the plan's place (one level in), cut out of
        // an object holding it alone.
        let alone = Array(JSONWriter.write(.object([JSONMember("plan", JSONNode(.array(plan.map { JSONNode(.string($0)) })))])).utf8)
        let layout = Array(alone[Self.planOpening.count..<(alone.count - 3)])
        plans[text] = (plan, layout)
        return (plan, layout)
    }

    private static let planOpening = Array("{\n  \"plan\": ".utf8)
    private static let emptyPlanMember = Array("\n  \"plan\": [],\n".utf8)
}
