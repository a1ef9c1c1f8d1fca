import CheckrunModel

/// Which way each counter of a check should move between builds, for the regressions a
/// comparison flags.
extension Comparison {
    /// Which way a counter should move, from its check: more is better for an outcome that
    /// needs at least a number, fewer for one that allows at most a number or a counter with a
    /// ceiling; for any other counter (stops, say) growth is what gets flagged.
    package enum CounterDirection: Sendable {
        case moreIsBetter, fewerIsBetter
    }

    /// Each check's counter directions, by check name.
    package static func directions(_ library: ProtocolLibrary) -> [String: [String: CounterDirection]] {
        var all: [String: [String: CounterDirection]] = [:]
        for reference in library.allChecks { all[reference.name] = directions(for: reference.check) }
        return all
    }

    /// Each counter's direction for a check.
    package static func directions(for check: Check) -> [String: CounterDirection] {
        var directions: [String: CounterDirection] = [:]
        for counter in check.counters { directions[counter.id] = .fewerIsBetter }
        for outcome in check.expected {
            guard let target = outcome.target else { continue }
            directions[target.counter] = target.atLeast != nil ? .moreIsBetter : .fewerIsBetter
        }
        return directions
    }
}
