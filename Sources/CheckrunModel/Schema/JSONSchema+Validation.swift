import Foundation

/// Validation, keyword by keyword: each function checks the keywords of one kind of instance.
extension JSONSchema {
    // MARK: - Validation

    func resolve(_ reference: String) -> JSONNode? {
        references[reference] ?? Self.resolve(reference, in: root)
    }

    static func resolve(_ reference: String, in root: JSONNode) -> JSONNode? {
        guard reference.hasPrefix("#") else { return nil }
        var node = root
        for token in reference.dropFirst().split(separator: "/") {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let next = node[key] {
                node = next
            } else if let items = node.arrayValue, let index = Int(key), items.indices.contains(index) {
                node = items[index]
            } else {
                return nil
            }
        }
        return node
    }

    /// The description that explains what a value at this place should be.
    func describe(_ schema: JSONNode, inherited: String?) -> String? {
        if let own = schema["description"]?.stringValue { return own }
        if let reference = schema["$ref"]?.stringValue, let target = resolve(reference) {
            return describe(target, inherited: inherited)
        }
        return inherited
    }

    func validate(
        _ instance: JSONNode, against schema: JSONNode, at pointer: JSONPointer,
        description inherited: String?, into violations: inout [SchemaViolation]
    ) {
        if case .bool(let allowed) = schema.value {
            if !allowed { report("this value is not allowed here; remove it", instance, pointer, &violations) }
            return
        }
        let description = describe(schema, inherited: inherited)

        if let reference = schema["$ref"]?.stringValue {
            if let target = resolve(reference) {
                validate(instance, against: target, at: pointer, description: description, into: &violations)
            } else {
                report("the schema's $ref \"\(reference)\" does not resolve; the schema itself is broken", instance, pointer, &violations)
            }
        }

        if let type = schema["type"] {
            let allowed = type.stringValue.map { [$0] } ?? (type.arrayValue ?? []).compactMap(\.stringValue)
            if allowed == ["integer"], case .number(let number) = instance.value, number.rounded() == number, Int(exactly: number) == nil {
                // A whole number beyond 64 bits parses as a double; read as an integer it
                // would be dropped, so it is refused here, where the pointer can be given.
                report("\(show(instance)) is too large for a whole number here (at most \(Int.max))\(Self.hint(description))", instance, pointer, &violations)
                return
            }
            if !allowed.contains(where: { matches(instance.value, type: $0) }) {
                let expected = allowed.map(Self.spoken(type:)).joined(separator: " or ")
                report("expected \(expected), found \(instance.value.spokenType)\(Self.hint(description))", instance, pointer, &violations)
                return
            }
        }

        if let options = schema["enum"]?.arrayValue, !options.contains(where: { $0.value == instance.value }) {
            let listed = options.map { JSONWriter.compact($0.value) }
            let suggestion = instance.stringValue.map {
                Suggestions.didYouMean($0, among: options.compactMap(\.stringValue))
            } ?? ""
            report("\(show(instance)) is not allowed; use one of \(listed.joined(separator: ", ")).\(suggestion)", instance, pointer, &violations)
        }
        if let constant = schema["const"], constant.value != instance.value {
            report("must be \(show(constant))", instance, pointer, &violations)
        }

        switch instance.value {
        case .object(let members):
            validateObject(instance, members, schema, pointer, &violations)
        case .array(let items):
            validateArray(instance, items, schema, pointer, description, &violations)
        case .string(let text):
            validateString(instance, text, schema, pointer, description, &violations)
        case .integer, .number:
            validateNumber(instance, schema, pointer, &violations)
        default:
            break
        }

        for sub in schema["allOf"]?.arrayValue ?? [] {
            validate(instance, against: sub, at: pointer, description: description, into: &violations)
        }
        if let branches = schema["anyOf"]?.arrayValue {
            validateAlternatives(instance, branches, pointer, description, exactlyOne: false, &violations)
        }
        if let branches = schema["oneOf"]?.arrayValue {
            validateAlternatives(instance, branches, pointer, description, exactlyOne: true, &violations)
        }
    }

    func validateObject(
        _ instance: JSONNode, _ members: [JSONMember], _ schema: JSONNode, _ pointer: JSONPointer,
        _ violations: inout [SchemaViolation]
    ) {
        let properties = schema["properties"]?.objectMembers ?? []
        for required in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where instance[required] == nil {
            let about = properties.first { $0.key == required }.flatMap { describe($0.value, inherited: nil) }
            let misspelt = members.first { !properties.map(\.key).contains($0.key) && Suggestions.distance($0.key.lowercased(), required.lowercased()) <= 2 }
            var message = "missing \"\(required)\"; add it"
            if let misspelt { message += " (is \"\(misspelt.key)\" meant to be \"\(required)\"?)" }
            if let about { message += " — \(about)" }
            report(message, instance, pointer, &violations)
        }
        for member in members {
            let memberPointer = pointer.appending(member.key)
            if let property = properties.first(where: { $0.key == member.key }) {
                validate(member.value, against: property.value, at: memberPointer, description: nil, into: &violations)
            } else if let additional = schema["additionalProperties"] {
                if case .bool(false) = additional.value {
                    let known = properties.map(\.key)
                    let suggestion = Suggestions.didYouMean(member.key, among: known)
                    violations.append(SchemaViolation(
                        pointer: memberPointer, location: member.keyLocation,
                        message: "unknown key \"\(member.key)\".\(suggestion) Known keys here: \(known.joined(separator: ", "))"))
                } else {
                    validate(member.value, against: additional, at: memberPointer, description: nil, into: &violations)
                }
            }
        }
    }

    func validateArray(
        _ instance: JSONNode, _ items: [JSONNode], _ schema: JSONNode, _ pointer: JSONPointer, _ description: String?,
        _ violations: inout [SchemaViolation]
    ) {
        let hint = Self.hint(description)
        if let minimum = schema["minItems"]?.intValue, items.count < minimum {
            report("needs at least \(minimum) item\(minimum == 1 ? "" : "s"), has \(items.count)\(hint)", instance, pointer, &violations)
        }
        if let maximum = schema["maxItems"]?.intValue, items.count > maximum {
            report("may hold at most \(maximum) item\(maximum == 1 ? "" : "s"), has \(items.count)", instance, pointer, &violations)
        }
        if let itemSchema = schema["items"] {
            for (index, item) in items.enumerated() {
                validate(item, against: itemSchema, at: pointer.appending(index), description: nil, into: &violations)
            }
        }
        if case .bool(true) = schema["uniqueItems"]?.value {
            for (index, item) in items.enumerated() {
                if let first = items[..<index].firstIndex(where: { $0.value == item.value }) {
                    report("\(show(item)) is listed twice (first at \(pointer.appending(first))); list each once", item, pointer.appending(index), &violations)
                }
            }
        }
    }

    func validateString(
        _ instance: JSONNode, _ text: String, _ schema: JSONNode, _ pointer: JSONPointer, _ description: String?,
        _ violations: inout [SchemaViolation]
    ) {
        // Counted only when a length is asked for: an export's pieces are megabytes of text.
        let minimumLength = schema["minLength"]?.intValue, maximumLength = schema["maxLength"]?.intValue
        let length = minimumLength == nil && maximumLength == nil ? 0 : text.unicodeScalars.count
        let hint = Self.hint(description)
        if let minimum = minimumLength, length < minimum {
            report(length == 0 ? "is empty; write something\(hint)" : "is too short: at least \(minimum) characters\(hint)", instance, pointer, &violations)
        }
        if let maximum = maximumLength, length > maximum {
            report("is too long: \(length) characters, at most \(maximum)", instance, pointer, &violations)
        }
        if let pattern = schema["pattern"]?.stringValue, !matches(text, pattern: pattern) {
            report("\(show(instance)) is not in the required form\(hint.isEmpty ? " (pattern \(pattern))" : hint)", instance, pointer, &violations)
        }
    }

    func validateNumber(_ instance: JSONNode, _ schema: JSONNode, _ pointer: JSONPointer, _ violations: inout [SchemaViolation]) {
        guard let value = instance.doubleValue else { return }
        let shown = show(instance)
        if let minimum = schema["minimum"]?.doubleValue, value < minimum {
            report("\(shown) is too small; the least allowed is \(format(minimum))", instance, pointer, &violations)
        }
        if let maximum = schema["maximum"]?.doubleValue, value > maximum {
            report("\(shown) is too large; the most allowed is \(format(maximum))", instance, pointer, &violations)
        }
        if let minimum = schema["exclusiveMinimum"]?.doubleValue, value <= minimum {
            report("\(shown) is too small; it must be more than \(format(minimum))", instance, pointer, &violations)
        }
        if let maximum = schema["exclusiveMaximum"]?.doubleValue, value >= maximum {
            report("\(shown) is too large; it must be less than \(format(maximum))", instance, pointer, &violations)
        }
    }

    /// Reports the errors of the branch meant (the one whose type fits), not a vague "matches none".
    func validateAlternatives(
        _ instance: JSONNode, _ branches: [JSONNode], _ pointer: JSONPointer, _ description: String?, exactlyOne: Bool,
        _ violations: inout [SchemaViolation]
    ) {
        var outcomes: [[SchemaViolation]] = []
        for branch in branches {
            var found: [SchemaViolation] = []
            validate(instance, against: branch, at: pointer, description: description, into: &found)
            outcomes.append(found)
        }
        let passing = outcomes.filter(\.isEmpty).count
        if exactlyOne && passing > 1 {
            report("matches more than one of the allowed forms; make it match exactly one", instance, pointer, &violations)
            return
        }
        guard passing == 0 else { return }
        let typed = zip(branches, outcomes).filter { branch, _ in
            guard let type = branch["type"]?.stringValue else { return false }
            return matches(instance.value, type: type)
        }
        if typed.count == 1 {
            violations.append(contentsOf: typed[0].1)
        } else {
            let forms = branches.compactMap { $0["type"]?.stringValue }.map(Self.spoken(type:))
            let list = forms.isEmpty ? "one of the allowed forms" : forms.joined(separator: " or ")
            report("expected \(list), found \(instance.value.spokenType)\(description.map { " — \($0)" } ?? "")", instance, pointer, &violations)
        }
    }

    static func hint(_ description: String?) -> String {
        description.map { " — \($0)" } ?? ""
    }

    func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): return true
        case ("number", .integer), ("number", .number), ("integer", .integer): return true
        case ("integer", .number(let number)): return number.rounded() == number && Int(exactly: number) != nil
        default: return false
        }
    }

    static func spoken(type: String) -> String {
        switch type {
        case "integer": return "a whole number"
        case "number": return "a number"
        case "string": return "a string"
        case "array": return "a list [ … ]"
        case "object": return "an object { … }"
        case "boolean": return "true or false"
        default: return type
        }
    }

    func show(_ node: JSONNode) -> String {
        let text = JSONWriter.compact(node.value)
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }

    func format(_ number: Double) -> String {
        number.rounded() == number ? (Int(exactly: number).map(String.init) ?? String(number)) : String(number)
    }

    func report(_ message: String, _ node: JSONNode, _ pointer: JSONPointer, _ violations: inout [SchemaViolation]) {
        violations.append(SchemaViolation(pointer: pointer, location: node.location, message: message))
    }
}
