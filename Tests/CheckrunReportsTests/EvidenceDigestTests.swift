import CheckrunModel
import CheckrunReports
import CheckrunStore
import Foundation
import Testing

/// The report's evidence digest (Schemas/canonical-forms.md), locked.
@Suite struct EvidenceDigestTests {
    @Test func theDigestOfChainsAndResultsShown() throws {
        let session = try #require(UUID(uuidString: "6F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9"))
        let resultID = try #require(UUID(uuidString: "0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B"))
        let chains = [ResultStore.ChainDigest(session: session, records: 3, head: String(repeating: "ab", count: 32))]
        var result = CheckResult(id: resultID, sessionID: session, check: "tiny-target/touch-one-hand", protocolHash: "h", attempt: 1,
                                 outcomeCount: 2, startedAt: Date(timeIntervalSince1970: 0))
        result.outcomes = [OutcomeAnswer(.pass, answeredAt: Date(timeIntervalSince1970: 0)), nil]
        result.verdict = .fail
        let shown = [ReportedResult(result: result, release: "2.4", build: "311", device: "iPhone 15", tester: "Ana", attempts: 1, amendments: 1)]
        let digest = ReleaseReport.evidenceDigest(chains: chains, results: shown)
        #expect(digest == "afbd1afa8da7cbf0971e668eb7a08128ec2955952bd7c058a98419a2e5306e27")
        let lines = "chain 6f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9 3 \(String(repeating: "ab", count: 32))\nresult 0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b \"tiny-target/touch-one-hand\" \"311\" \"iPhone 15\" fail pass,- 1"
        #expect(digest == SHA256.hex(lines), "the form the spec writes down")
        result.verdict = .pass
        #expect(ReleaseReport.evidenceDigest(chains: chains, results: [ReportedResult(result: result, release: "2.4", build: "311", device: "iPhone 15", tester: "Ana", attempts: 1, amendments: 1)]) != digest)
    }

    /// A result's attachments are part of what the report shows; a report without any keeps
    /// the digest above.
    @Test func theDigestCoversTheAttachmentsShown() throws {
        let session = try #require(UUID(uuidString: "6F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9"))
        let resultID = try #require(UUID(uuidString: "0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B"))
        var result = CheckResult(id: resultID, sessionID: session, check: "tiny-target/touch-one-hand", protocolHash: "h", attempt: 1,
                                 outcomeCount: 0, startedAt: Date(timeIntervalSince1970: 0))
        result.verdict = .fail
        let shot = CheckrunModel.Attachment(hash: String(repeating: "cd", count: 32), name: "shot.png", mediaType: "image/png", size: 3,
                                            description: "", outcome: nil, attachedAt: Date(timeIntervalSince1970: 0))
        result.attachments = [shot]
        let digest = ReleaseReport.evidenceDigest(chains: [], results: [ReportedResult(result: result, release: "2.4", build: "311", device: "", tester: "", attempts: 1)])
        let line = "result 0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b \"tiny-target/touch-one-hand\" \"311\" \"\" fail  0 attachments \(shot.hash)"
        #expect(digest == SHA256.hex(line), "the form the spec writes down")
        result.attachments[0].hash = String(repeating: "ef", count: 32)
        #expect(ReleaseReport.evidenceDigest(chains: [], results: [ReportedResult(result: result, release: "2.4", build: "311", device: "", tester: "", attempts: 1)]) != digest)
    }
}
