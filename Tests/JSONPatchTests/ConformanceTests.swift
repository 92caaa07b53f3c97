import ActionLog
import Foundation
import Testing

/// Runs the public JSON Patch test suite (see `Resources/json-patch/NOTICE.md`).
@Suite("JSON Patch conformance suite")
struct ConformanceTests {
    /// The records of one suite file.
    static func records(in file: String) throws -> [JSONValue] {
        let url = try #require(
            Bundle.module.url(forResource: file, withExtension: "json", subdirectory: "Resources/json-patch"),
            "\(file).json is missing from the test resources")
        let json = try JSONValue(parsing: [UInt8](try Data(contentsOf: url)))
        guard case .array(let records) = json else {
            Issue.record("\(file).json is not an array of records")
            return []
        }
        return records
    }

    /// Every enabled record of `file` passes; `enabledRecords` is how many there are, so the test
    /// cannot pass by running none of them.
    @Test(
        "Every enabled record applies as expected or is refused",
        arguments: [("tests", 92), ("spec_tests", 16)])
    func suite(file: String, enabledRecords: Int) throws {
        var run = 0
        for (index, record) in try Self.records(in: file).enumerated() {
            guard case .object(let fields) = record else {
                Issue.record("\(file).json record \(index) is not an object")
                continue
            }
            if fields["disabled"] == .bool(true) { continue }
            // Records with only a comment are notes.
            guard let document = fields["doc"], let patchJSON = fields["patch"] else { continue }

            var label = "\(file).json record \(index)"
            if case .string(let comment)? = fields["comment"] { label += " (\(comment))" }
            run += 1

            let outcome = Result { () throws(ActionLogError) -> JSONValue in
                let patch = try JSONPatch(patchJSON)
                // Writing the patch out and reading it back gives the same operations.
                let reread = try JSONPatch(patch.jsonValue)
                #expect(reread == patch, "\(label): the patch does not survive its JSON form")
                let result = try patch.apply(to: document)
                // Applying in place gives the same document.
                var inPlace = document
                try patch.apply(to: &inPlace)
                #expect(inPlace == result, "\(label): in place gave \(inPlace.canonicalText)")
                return result
            }

            switch (fields["expected"], fields["error"], outcome) {
            case (let expected?, _, .success(let result)):
                #expect(
                    result.isEquivalent(to: expected),
                    "\(label): gave \(result.canonicalText), expected \(expected.canonicalText)")
            case (let expected?, _, .failure(let error)):
                Issue.record("\(label): expected \(expected.canonicalText), but the patch failed: \(error)")
            case (nil, let reason?, .success(let result)):
                Issue.record("\(label): expected an error (\(reason.canonicalText)), but got \(result.canonicalText)")
            case (nil, _?, .failure):
                break
            case (nil, nil, _):
                Issue.record("\(label): the record has neither \"expected\" nor \"error\"")
            }
        }
        #expect(run == enabledRecords, "ran \(run) records of \(file).json, expected \(enabledRecords)")
    }

    /// The suite's error records fail for the reason they name, in the words of `ActionLogError`.
    @Test("Error records give specific messages")
    func errorMessages() throws {
        let records = try Self.records(in: "tests")
        func message(_ index: Int) -> String? {
            guard case .object(let fields) = records[index], let document = fields["doc"], let patch = fields["patch"] else {
                return nil
            }
            do {
                _ = try JSONPatch(patch).apply(to: document)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(message(28) == "operation 0 (add /3): cannot insert at index 3 (the array has 2)")
        #expect(message(30) == #"operation 0 (test /1e0): "1e0" is not an array index"#)
        #expect(message(31) == #"operation 0 (add /bar): "bar" is not an array index"#)
        #expect(message(44) == #"operation 0 (replace /foo/bar): no member "foo" in the root object"#)
        #expect(message(55) == #"operation 0 (test /foo): the value is {"bar":[1,2,5,4]}, not [1,2]"#)
        #expect(message(74) == #"operation 0 (add): the "path" member is missing"#)
        #expect(message(75) == #"operation 0 (add): "path" must be a string, not null"#)
        #expect(message(76) == #"operation 0 (add foo): "foo" is not a JSON Pointer: it must be empty or start with "/""#)
        #expect(message(81) == #"operation 0 (copy /-): the "from" member is missing"#)
        #expect(message(84) == #"operation 0 (move /bar to /foo): no member "bar" in the root object"#)
        #expect(message(86) == #"operation 0: unknown op "spam" (expected add, remove, replace, move, copy or test)"#)
        #expect(message(88) == #"operation 0 (test /01): "01" is not an array index (leading zeros are not allowed)"#)
        #expect(message(91) == "operation 0 (remove /2): no element at index 2 (the array has 2)")
    }
}
