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
