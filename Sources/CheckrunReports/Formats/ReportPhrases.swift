import CheckrunModel
import CheckrunStore
import Foundation

/// Phrases every human-readable format shares, so Markdown and HTML say the same thing.
enum ReportPhrases {
    static func date(_ date: Date?) -> String {
        date.map(Timestamps.day) ?? "none"
    }

    static func timestamp(_ date: Date) -> String {
        Timestamps.iso8601(date)
    }

    static func time(_ seconds: Double?) -> String {
        seconds.map(Durations.spoken) ?? "not timed"
    }

    /// A result's active time with its check's limit: "1 minute 0.4 seconds (limit 1 minute,
    /// over by 0.4 seconds)". How far over is said, so no rounding can make a time read as the
    /// limit it went over.
    static func activeTime(_ result: CheckResult, _ check: Check?) -> String {
        let time = time(result.activeSeconds)
        guard let limit = check?.timeLimit else { return time }
        guard let seconds = result.activeSeconds, seconds > Double(limit) else {
            return "\(time) (limit \(Durations.spoken(Double(limit))))"
        }
        let over = seconds - Double(limit)
        return "\(time) (limit \(Durations.spoken(Double(limit))), over by \(over < 0.005 ? "less than 0.01 seconds" : Self.seconds(over)))"
    }

    /// Items joined by semicolons: names of devices, testers and profiles often hold commas
    /// ("iPhone 15, iOS 18"; "Switch Control, item scanning").
    /// A name holding the separator is quoted, so "O'Brien; Lee" stays one tester.
    static func list(_ items: [String]) -> String {
        items.isEmpty ? "none" : items.map(name).joined(separator: "; ")
    }

    /// A device, build or tester in a line whose parts semicolons separate: quoted when it holds one.
    static func name(_ text: String) -> String {
        text.contains(";") ? "“\(text)”" : text
    }

    /// "attempt 2; 2 finished results on this device in build 311". Attempts are numbered per
    /// check, device and build by the database that recorded them, so results merged from two
    /// testers' databases may share a number; the count is of the results themselves, on the
    /// device and OS version the result is the latest of.
    static func attempt(_ reported: ReportedResult) -> String {
        let count = reported.attempts
        let place = reported.osVersion.isEmpty ? "this device" : "this device and OS version"
        return "attempt \(reported.result.attempt); \(count) finished result\(count == 1 ? "" : "s") on \(place) in build \(reported.build)"
    }

    static func summary(_ report: ReleaseReport) -> String {
        let counts = report.summary
        // "not applicable" only where a check was: the summary reads as it always has otherwise.
        let parts = CheckStatus.allCases.filter { $0 != .notApplicable || counts[$0] != nil }.map { "\(counts[$0] ?? 0) \($0.rawValue)" }
        let removed = report.removedStatuses.count
        return "\(report.checkCount) checks\(removed == 0 ? "" : " (\(removed) no longer in the protocols)"): " + parts.joined(separator: ", ")
    }

    /// "hits 9 (target at least 10 of 10); stops 14 (ceiling 20, over)".
    static func counters(_ result: CheckResult, _ check: Check?) -> String {
        let names = Set(result.counters.keys).union(check?.counters.map(\.id) ?? [])
        guard !names.isEmpty else { return "none" }
        return names.sorted().map { name -> String in
            let value = result.counters[name].map { String($0.value) } ?? "not counted"
            var text = "\(name) \(value)"
            if let ceiling = check?.counters.first(where: { $0.id == name })?.ceiling {
                let over = (result.counters[name]?.value ?? 0) > ceiling
                text += " (ceiling \(ceiling)\(over ? ", over" : ""))"
            }
            return text
        }.joined(separator: "; ")
    }

    /// Said of a result whose check has changed since it was answered (`answeredCheck`).
    static let answeredEarlierVersion = "Answered against an earlier version of this check: its expected outcomes read as they did then."

    /// Said of a result answered against a version of its protocol the database does not keep.
    static let answeredUnkeptVersion = "Answered against another version of this protocol, which the database does not keep: the expected outcomes read as they do now, and may have read otherwise then."

    /// What a result's answers were given against, when that is not the text shown by default.
    static func answeredVersion(_ reported: ReportedResult) -> String? {
        reported.answeredCheck != nil ? answeredEarlierVersion : reported.answeredUnkeptVersion ? answeredUnkeptVersion : nil
    }

    /// Every expected outcome of the check, as answered (nil where not): a verdict given
    /// without answering them all lists the rest "not answered", so a pass that rests on the
    /// tester's word alone is seen to.
    static func answers(_ result: CheckResult, _ check: Check?) -> [OutcomeAnswer?] {
        result.outcomes + Array(repeating: nil, count: max(0, (check?.expected.count ?? 0) - result.outcomes.count))
    }

    static func outcome(_ answer: OutcomeAnswer?, _ expected: ExpectedOutcome?) -> String {
        guard let answer else { return "not answered" }
        var text = answer.verdict.spoken
        if let value = answer.value { text += ", \(value)" + (expected?.target.map { " against \($0.summary)" } ?? "") }
        if let note = answer.note, !note.isEmpty { text += ": \(note)" }
        return text
    }

    static func verdict(_ result: CheckResult) -> String {
        guard let verdict = result.verdict else { return "in progress" }
        if verdict == .blocked, let reason = result.blockedReason { return "blocked: \(reason)" }
        return verdict.rawValue
    }

    /// "failed in build 310 (attempt 1) and not shown fixed since": the failure behind a skip or block.
    /// In the skipped or blocked result itself: "it failed before the check was set aside, and
    /// it is not shown fixed since" (an outcome answered fail, or a count over its ceiling).
    static func failedEarlier(_ earlier: ReportedResult.EarlierFailure) -> String {
        earlier.isThisResult
            ? "it failed before the check was set aside, and it is not shown fixed since"
            : "failed in build \(earlier.build) (attempt \(earlier.attempt)\(earlier.elsewhere.map { ", on \($0)" } ?? "")) and not shown fixed since"
    }

    /// "fail" or "pass (amended once: reason)".
    static func verdict(_ reported: ReportedResult) -> String {
        var base = verdict(reported.result)
        if let earlier = reported.failedEarlier { base += "; " + failedEarlier(earlier) + ", so it counts as failed" }
        if reported.result.passedOnlyAsNotApplicable { base += "; " + CheckResult.nothingApplied + ", so it counts as not applicable" }
        guard reported.amendments > 0 else { return base }
        let times = reported.amendments == 1 ? "once" : "\(reported.amendments) times"
        return "\(base) (amended \(times)\(reported.amendReason.map { ": \($0)" } ?? ""))"
    }

    /// A time difference: "+5.0 s" in tables, "5 seconds longer" in words (the terminal's text,
    /// which speech reads: "+5.0 s" is heard as "plus five point zero ess").
    static func timeDelta(_ delta: Double, inWords: Bool) -> String {
        guard inWords else {
            // A change too small for tenths keeps the places it takes to show: never "-0.0 s".
            let shown = delta == 0 ? nil : Decimals.fewestPlaces(delta, from: 1, plus: true) { $0 != 0 }
            return (shown ?? Decimals.fixed(delta, places: delta == 0 ? 1 : 3, plus: true)) + " s"
        }
        if delta == 0 { return "unchanged" }
        return seconds(abs(delta)) + (delta > 0 ? " longer" : " shorter")
    }

    /// A time in words, as precise as the figures compared: "0.14 seconds", "59.96 seconds",
    /// "1 minute 5 seconds" (whole seconds from a minute on).
    static func seconds(_ value: Double) -> String {
        guard value < 59.995 else { return Durations.spoken(value) }
        // Trailing zeros cut by hand: a regular expression here, once per figure, was a third
        // of a comparison's time at a million results.
        var text = Decimals.fixed(value, places: 2)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return "\(text) second\(text == "1" ? "" : "s")"
    }

    /// A change in percent, signed: one that rounds to no percent is "under 1%", not "-0%".
    static func percent(_ value: Double) -> String {
        if value == 0 { return "0%" }
        let rounded = Decimals.fixed(value, places: 0, plus: true)
        return rounded == "-0" || rounded == "+0" ? "under 1%" : rounded + "%"
    }

    static func change(_ change: BuildChange, _ labels: [String], inWords: Bool = false) -> String {
        var parts: [String] = []
        switch change.verdictChange {
        case .same: break
        default: parts.append(change.verdictChange.rawValue)
        }
        if change.protocolChanged {
            parts.append("check changed, time and counts not compared")
        } else {
            if let delta = change.secondsDelta {
                let percent = change.percentDelta.map { " (" + Self.percent($0) + ")" } ?? ""
                parts.append("time " + timeDelta(delta, inWords: inWords) + percent)
            }
            for (name, delta) in change.counterDeltas.sorted(by: { $0.key < $1.key }) where delta != 0 {
                parts.append("\(name) \(delta > 0 ? "+" : "")\(Comparison.format(delta))")
            }
        }
        if parts.isEmpty { parts.append("no change") }
        let flag = change.flags.isEmpty ? "" : "REGRESSION (\(change.flags.joined(separator: ", "))): "
        return "\(labels[change.from]) → \(labels[change.to]): " + flag + parts.joined(separator: ", ")
    }
}
