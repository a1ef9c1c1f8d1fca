import CheckrunModel
import CheckrunStore
import CheckrunWalk
import Foundation

/// Another writer saved a result of this session while the walk was open (a teammate's
/// `amend`, the session resumed in a second terminal, a merge): the walk never saves over it,
/// says so in words, and goes on from what is saved.
extension WalkRunner {
    /// A save refused: nothing the walk meant to say about the answer is true now, so only
    /// what was not saved, why, and what the check holds now are said. (Or an answer saved
    /// whose reply a lost connection took, changed by another writer since: said as saved.)
    mutating func refuse(_ events: [WalkEvent], _ changed: ResultChangedElsewhere) {
        let lines = events.compactMap { event -> String? in
            guard case .say(let line) = event, !line.isEmpty else { return nil }
            return [".", "?", "!"].contains(line.last) ? line : line + "."
        }
        let answer = lines.isEmpty ? "this answer." : "\"\(lines.joined(separator: " "))\""
        if changed.cameAfterThisAnswer {
            context.print("Saved: \(answer) Since then, the \(changed). The walk goes on from what is saved.")
        } else {
            context.print("Not saved: \(answer) The \(changed), and this answer would have undone that. The walk goes on from what is saved.")
        }
        seen[changed.current.id] = changed.payload
        emit(walk.adopt(changed.current))
        refused = true
    }

    /// The question to ask next; none when the walk is through, once changes other writers
    /// made meanwhile are taken on (a refused save can leave nothing to ask here while another
    /// terminal has reopened a check).
    mutating func nextPrompt() throws -> Prompt? {
        if walk.prompt == nil, try takeChangesMadeElsewhere() { emit(walk.introduce()) }
        return walk.prompt
    }

    /// Before the walk calls the session complete: results another writer saved since this
    /// walk last read them (a check reopened in another terminal) are taken on. True when the
    /// walk is no longer finished and goes on.
    mutating func takeChangesMadeElsewhere() throws -> Bool {
        takeChanges(try store.latestPayloads(inSession: walk.session.id))
    }

    /// Takes on what `latest` (each result's latest record, as just read) holds that this walk
    /// has not seen; true when the walk is no longer finished and goes on.
    mutating func takeChanges(_ latest: [UUID: String]) -> Bool {
        var changedAny = false
        for (id, payload) in latest where seen[id] != payload {
            guard let current = CheckResult.decoding(payload: payload, sessionID: walk.session.id),
                  walk.results.contains(where: { $0.id == id || (seen[id] == nil && $0.check == current.check) }) else { continue }
            context.print("Check \(DisplayText.preview(current.check, limit: 200)) was changed by another writer while this walk was open.")
            seen[id] = payload
            emit(walk.adopt(current))
            changedAny = true
        }
        return changedAny && !walk.isFinished
    }
}
