import CheckrunModel
import CheckrunTestSupport
import Foundation
import Testing

/// The binary carries the schema and the WCAG table inside it; these tests prove the embedded
/// copies are exactly what the repository holds, and that the validator knows every keyword used.
@Suite struct EmbeddedDataTests {
    @Test func theBinaryValidatesWithExactlyTheSchemaInSchemasFolder() throws {
        let onDisk = try Repository.text("Schemas/protocol.schema.json")
        #expect(ProtocolSchema.text == onDisk, "Schemas/protocol.schema.json changed: run .ci/embed-data")
        #expect(ProtocolSchema.schema.root == (try JSONParser.parse(onDisk)))
    }

    @Test func everyKeywordTheSchemaUsesIsOneTheValidatorImplements() throws {
        let schema = try JSONParser.parse(try Repository.text("Schemas/protocol.schema.json"))
        let used = JSONSchema.keywordsUsed(in: schema)
        let unknown = used.subtracting(JSONSchema.supportedKeywords)
        #expect(unknown.isEmpty, "keywords the validator ignores: \(unknown.sorted())")
        #expect(used.contains("additionalProperties") && used.contains("$ref") && used.contains("anyOf"))
    }

    @Test func theSchemaDeclaresDraft2020_12() throws {
        let schema = try JSONParser.parse(try Repository.text("Schemas/protocol.schema.json"))
        #expect(schema["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
    }

    @Test func theWCAGTableIsTheRepositoryCopy() throws {
        let fixture = WCAGTable(tsv: try Repository.text("Tests/Fixtures/wcag22.tsv"))
        #expect(WCAGTable.wcag22.criteria == fixture.criteria)
        #expect(WCAGTable.wcag22.criteria.count == 86, "WCAG 2.2 has 86 success criteria")
        #expect(WCAGTable.wcag22["2.5.8"]?.name == "Target Size (Minimum)")
        #expect(WCAGTable.wcag22["2.5.8"]?.level == .aa)
        #expect(WCAGTable.wcag22["4.1.1"] == nil, "4.1.1 Parsing was removed in WCAG 2.2")
    }

    @Test(.enabled(if: Repository.shared != nil, "needs ../shared beside the clone"))
    func fixturesMatchTheSharedSourcesWhenPresent() throws {
        let shared = try #require(Repository.shared)
        let table = try String(contentsOf: shared.appendingPathComponent("data/wcag22.tsv"), encoding: .utf8)
        #expect(table == (try Repository.text("Tests/Fixtures/wcag22.tsv")))
        let seeds = shared.appendingPathComponent("seeds")
        for name in try FileManager.default.contentsOfDirectory(atPath: seeds.path) {
            let original = try String(contentsOf: seeds.appendingPathComponent(name), encoding: .utf8)
            #expect(original == (try Repository.text("Tests/Fixtures/seeds/\(name)")), "\(name) differs from ../shared/seeds")
        }
    }
}
