import CheckrunModel
import Foundation
import Testing

@Suite struct UUIDTextTests {
    @Test func textMatchesFoundationsSpelling() {
        for _ in 0..<100 {
            let id = UUID()
            #expect(id.storageText == id.uuidString)
            #expect(id.lowercasedText == id.uuidString.lowercased())
        }
    }

    /// Result ids made later sort later, so the database's indexes on them grow at one end.
    @Test func timeOrderedIdsSortByTimeAndAreVersion7() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let ids = (0..<50).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) * 0.002)) }
        #expect(ids.map(\.storageText) == ids.map(\.storageText).sorted())
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.storageText.dropFirst(14).first == "7")
            #expect("89AB".contains(id.storageText.dropFirst(19).first ?? " "))
            #expect(UUID(uuidString: id.storageText) == id)
        }
    }
}

@Suite struct UUIDParsingTests {
    @Test func parsesWhatFoundationParsesAndRefusesTheRest() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.lowercasedText) == id)
            #expect(UUID(text: id.storageText) == id)
            #expect(Array(id.storageText.utf8).withUnsafeBytes { UUID(utf8: $0) } == id, "read in place from a row")
        }
        for bad in ["", "not a uuid", "6F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F", "6F1E2D3C-4B5A-4978-8695-A4B3C2D1E0FG", "6F1E2D3C4B5A-4978-8695-A4B3C2D1E0F9A",
                    "6F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9 ", "6f1e2d3c_4b5a_4978_8695_a4b3c2d1e0f9"] {
            #expect(UUID(text: bad) == nil, "\(bad)")
            #expect(Array(bad.utf8).withUnsafeBytes { UUID(utf8: $0) } == nil, "\(bad)")
            #expect(UUID(uuidString: bad) == nil, "Foundation agrees about \(bad)")
        }
    }

    /// A payload holds its result's id in lower case; verification compares it in place.
    @Test func anIdIsSpelledOnlyByItsOwnLowerCaseText() {
        for _ in 0..<100 {
            let id = UUID()
            let other = UUID()
            func spelled(_ text: String) -> Bool {
                Array(text.utf8).withUnsafeBytes { id.isSpelled(lowercaseIn: $0) }
            }
            #expect(spelled(id.lowercasedText))
            #expect(!spelled(id.storageText) || id.storageText == id.lowercasedText)
            #expect(!spelled(other.lowercasedText))
            #expect(!spelled(String(id.lowercasedText.dropLast())))
            #expect(!spelled(id.lowercasedText.replacingOccurrences(of: "-", with: "_")))
        }
    }
}
