import CheckrunModel
import Foundation
import Testing

/// The hashed forms of Schemas/canonical-forms.md, locked: records and sessions chained by
/// an earlier checkrun must verify with every later one.
@Suite struct CanonicalFormTests {
    static func session() throws -> Session {
        Session(id: try #require(UUID(uuidString: "6F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9")), release: "2.4", build: "311 (45)",
                device: "iPhone 15, \"mini\"", osVersion: "18.1", tester: "Ana Núñez",
                plan: ["tiny-target/touch-one-hand", "motor-accessibility/switch-control-stops-to-pay"],
                startedAt: Date(timeIntervalSince1970: 1_700_000_000.5), finishedAt: nil)
    }

    @Test func aSessionsDetailsAndDigest() throws {
        let session = try Self.session()
        #expect(session.canonicalText == """
            {
              "id": "6f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9",
              "release": "2.4",
              "build": "311 (45)",
              "device": "iPhone 15, \\"mini\\"",
              "osVersion": "18.1",
              "tester": "Ana Núñez",
              "plan": [
                "tiny-target/touch-one-hand",
                "motor-accessibility/switch-control-stops-to-pay"
              ],
              "startedAt": 1700000000.5
            }

            """)
        #expect(session.digest == "d87f36b9bccc9521716f4c2f5600f33404a926cb4c6612c60736960261ffb5c0")
    }

    @Test func anAnswerRecordAndAnAmendRecord() throws {
        let session = try Self.session()
        let payload = try PayloadTests.sample().payload
        let answer = Record(sessionID: session.id, sequence: 1, resultID: try PayloadTests.sample().id, kind: .answer, reason: nil,
                            payload: payload, recordedAt: Date(timeIntervalSince1970: 0), previousHash: session.digest)
        #expect(answer.hash == "505fd0eb9396aa78939d84dfd8f8118c668698d8f38dd1376510964087d5527e")
        let amend = Record(sessionID: session.id, sequence: 2, resultID: answer.resultID, kind: .amend, reason: "Delete fired from the \"debug\" overlay\n",
                           payload: payload, recordedAt: Date(timeIntervalSince1970: 0), previousHash: answer.hash)
        #expect(amend.hash == "e35c8986d2e8fcf46c5463008df372405a2400beb58ab5a1bdd7180a9035fbc3")
        #expect(answer.hash == SHA256.hex([session.digest, "1", "answer", "\"\"", payload].joined(separator: "\n")), "the form the spec writes down")
        // Verification checks the same hash over the row's text read in place.
        func matches(_ record: Record, payload: String, hash: String) -> Bool {
            Array(payload.utf8).withUnsafeBytes { payloadBytes in
                Array(record.previousHash.utf8).withUnsafeBytes { previousBytes in
                    Array(hash.utf8).withUnsafeBytes {
                        Record.hashMatches(sequence: record.sequence, kind: record.kind, reason: record.reason, payload: payloadBytes,
                                           previousHash: previousBytes, storedHash: $0)
                    }
                }
            }
        }
        #expect(matches(answer, payload: payload, hash: answer.hash) && matches(amend, payload: payload, hash: amend.hash))
        #expect(!matches(answer, payload: payload + " ", hash: answer.hash))
        #expect(!matches(answer, payload: payload, hash: answer.hash.uppercased()))
        #expect(!matches(amend, payload: payload, hash: answer.hash))
    }
}

extension CanonicalFormTests {
    /// A result with evidence gains an `attachments` member at the end; one without has none,
    /// so the hashes above (recorded before attachments existed) stand.
    @Test func aPayloadWithAnAttachment() throws {
        var result = try PayloadTests.sample()
        #expect(!result.payload.contains("attachments"))
        result.attachments = [CheckrunModel.Attachment(hash: SHA256.hex("a screenshot"), name: "Shot 1.png", mediaType: "image/png", size: 12,
                                         description: "The Pay button, 20 points wide", outcome: 2, attachedAt: Date(timeIntervalSince1970: 1_700_000_100.25))]
        #expect(result.payload.hasSuffix("""
              ],
              "attachments": [
                {
                  "hash": "\(SHA256.hex("a screenshot"))",
                  "name": "Shot 1.png",
                  "mediaType": "image/png",
                  "size": 12,
                  "description": "The Pay button, 20 points wide",
                  "outcome": 2,
                  "attachedAt": 1700000100.25
                }
              ]
            }

            """))
        #expect(SHA256.hex(result.payload) == "738a9736f80b5a815d080eb0e0f20e7670ab1d3b174d8c19a14bcf39b7a0bcbc")
        #expect(CheckResult.decoding(payload: result.payload, sessionID: result.sessionID) == result)
    }
}
