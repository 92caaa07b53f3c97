import ActionLog
import Testing

private func json(_ text: String) throws -> JSONValue {
    try JSONValue(parsing: text)
}

private func pointer(_ text: String) throws -> JSONPointer {
    try #require(JSONPointer(text), "\(text) is not a JSON Pointer")
}

/// The message of the error that applying `patch` to `document` throws, or `nil` if it applies.
private func failure(_ patch: String, on document: String) throws -> String? {
    do {
        _ = try JSONPatch(json(patch)).apply(to: json(document))
        return nil
    } catch let error as ActionLogError {
        return error.description
    }
}

@Suite("JSON Patch")
struct JSONPatchTests {
    // MARK: Pointers

    @Test("JSON Pointers read and write ~0 and ~1 escapes")
    func pointers() throws {
        #expect(try pointer("").tokens == [])
        #expect(try pointer("/").tokens == [""])
        #expect(try pointer("/a~1b/m~0n/~01").tokens == ["a/b", "m~n", "~1"])
        #expect(JSONPointer(tokens: ["a/b", "m~n", "~1", ""]).description == "/a~1b/m~0n/~01/")
        #expect(JSONPointer("foo") == nil)
        #expect(JSONPointer("/a~2") == nil)
        #expect(JSONPointer("/a~") == nil)
        #expect(JSONPointer(FieldPath([.key("cart"), .index(3)])).description == "/cart/3")
        #expect(JSONPointer.root.appending("items").appending("-").description == "/items/-")
    }

    // MARK: Equivalence

    @Test("Numbers are equivalent by value, not by text")
    func numericEquivalence() throws {
        let same = ["1", "1.0", "1e0", "1E+0", "10e-1", "0.1e1", "1.000"]
        for text in same {
            #expect(JSONValue.number(text).isEquivalent(to: .number("1")), "\(text) should equal 1")
        }
        #expect(JSONValue.number("-0").isEquivalent(to: .number("0.0e5")))
        #expect(JSONValue.number("100").isEquivalent(to: .number("1e2")))
        #expect(JSONValue.number("123456789012345678901234567890").isEquivalent(to: .number("1.2345678901234567890123456789e29")))
        #expect(!JSONValue.number("1").isEquivalent(to: .number("1.0000000000000000000001")))
        #expect(!JSONValue.number("12345678901234567890").isEquivalent(to: .number("12345678901234567891")))
        #expect(!JSONValue.number("1").isEquivalent(to: .number("-1")))
        #expect(!JSONValue.number("10").isEquivalent(to: .string("10")))
        #expect(try json(#"{"a":[1,{"b":2.0}]}"#).isEquivalent(to: json(#"{"a":[1.0,{"b":2}]}"#)))
        #expect(try !json("[1,2]").isEquivalent(to: json("[2,1]")))
        #expect(try !json(#"{"a":1}"#).isEquivalent(to: json(#"{"a":1,"b":null}"#)))
    }

    @Test("test compares numbers numerically and objects without order")
    func testOperation() throws {
        let document = try json(#"{"n":1,"o":{"x":1e1,"y":[true]}}"#)
        let patch = try JSONPatch(json(#"[{"op":"test","path":"/n","value":1.0},{"op":"test","path":"/o","value":{"y":[true],"x":10}}]"#))
        #expect(try patch.apply(to: document) == document)
    }

    // MARK: Applying

    @Test("Operations apply in order")
    func applying() throws {
        let document = try json(#"{"cart":{"items":["apple","pear"],"total":3},"draft":true}"#)
        let patch = try JSONPatch(json(#"""
            [{"op":"add","path":"/cart/items/1","value":"fig"},
             {"op":"remove","path":"/draft"},
             {"op":"replace","path":"/cart/total","value":4},
             {"op":"copy","from":"/cart/items/0","path":"/cart/items/-"},
             {"op":"move","from":"/cart/total","path":"/total"},
             {"op":"test","path":"/cart/items","value":["apple","fig","pear","apple"]}]
            """#))
        #expect(try patch.apply(to: document) == json(#"{"cart":{"items":["apple","fig","pear","apple"]},"total":4}"#))
        #expect(patch.operations.count == 6)
        #expect(patch.operations[4] == .move(from: try pointer("/cart/total"), path: try pointer("/total")))
    }

    @Test("Applied in place, a failing patch keeps the operations before the failure; applied to a copy, nothing")
    func inPlaceFailure() throws {
        let document = try json(#"{"items":[1,2,3],"total":6}"#)
        let patch = try JSONPatch(json(#"""
            [{"op":"replace","path":"/total","value":7},
             {"op":"remove","path":"/items/5"}]
            """#))
        var inPlace = document
        let error = #expect(throws: ActionLogError.self) { try patch.apply(to: &inPlace) }
        #expect(error?.description == "operation 1 (remove /items/5): no element at index 5 (the array has 3)")
        #expect(inPlace == (try json(#"{"items":[1,2,3],"total":7}"#)))
        #expect(throws: ActionLogError.self) { _ = try patch.apply(to: document) }
        #expect(document == (try json(#"{"items":[1,2,3],"total":6}"#)))
    }

    @Test("A patch read straight from its bytes is the patch the general path reads, and nothing where that path refuses it", arguments: [
        #"[{"op":"replace","path":"/items/487/quantity","value":7}]"#,
        #"[{"op":"add","path":"/a~1b/-","value":{"x":[1]}},{"op":"remove","path":"/m~0n"}]"#,
        #"[{"op":"move","from":"/a","path":"/b"},{"op":"copy","from":"","path":"/c"},{"op":"test","path":"","value":null}]"#,
        #"[{"p\u0061th":"/a","\u006fp":"rep\u006cace","value":1}]"#,
        #"[{"op":"add","path":"\/a\u002fb","value":1}]"#,
        #"[{"op":"add","path":"/é/日","value":"ü","extra":[{"op":"remove"}],"path":"/last"}]"#,
        #"[{"value":1,"op":"replace","path":"/x","op":"add"}]"#,
        #"[{"op":"replace","path":"/x","from":"not a pointer","value":2}]"#,
        #"[]"#,
        #"[{"op":"replac","path":"/x","value":1}]"#,
        #"[{"op":"replacee","path":"/x","value":1}]"#,
        #"[{"op":"replacx","path":"/x","value":1}]"#,
        #"[{"op":"add","patx":"/x","path":"/y","valux":1,"value":2}]"#,
        #"[{"op":"add","path":"x","value":1}]"#,
        #"[{"op":"add","path":"/a~2","value":1}]"#,
        #"[{"op":"add","path":"/a~","value":1}]"#,
        #"[{"op":"move","path":"/a"}]"#,
        #"[{"op":"add","path":"/a"}]"#,
        #"[{"op":7,"path":"/a","value":1}]"#,
        #"[{"op":"add","path":["/a"],"value":1}]"#,
        #"[{"op":"add","path":"/a","value":1}"#,
        #"{"op":"add","path":"/a","value":1}"#,
        #"[{"op":"remove","path":"/a"},]"#,
        #"[{"op":"remove","path":"/a"}}"#,
        #"[{"op":"remove","path":"/a"}] x"#,
    ])
    func patchFromBytes(text: String) throws {
        let general = try? JSONPatch(json(text))
        #expect(JSONPatch.parsing(Array(text.utf8)) == general)
    }

    @Test("A patch writes itself as RFC 6902 JSON")
    func jsonForm() throws {
        let patch = JSONPatch(operations: [
            .add(path: try pointer("/a~1b"), value: [1, 2]),
            .remove(path: try pointer("/c")),
            .move(from: try pointer("/d"), path: try pointer("/e")),
        ])
        #expect(
            patch.description
                == #"[{"op":"add","path":"/a~1b","value":[1,2]},{"op":"remove","path":"/c"},{"from":"/d","op":"move","path":"/e"}]"#
        )
        #expect(try JSONPatch(patch.jsonValue) == patch)
    }

    // MARK: Error messages

    @Test("Error messages name the operation, its pointer and the problem")
    func pinnedErrorMessages() throws {
        let cart = #"{"cart":{"items":[1,2,3]},"/":9,"~1":10}"#
        #expect(
            try failure(
                #"[{"op":"test","path":"/cart/items/0","value":1},{"op":"add","path":"/x","value":0},{"op":"replace","path":"/cart/items/7","value":0}]"#,
                on: cart) == "operation 2 (replace /cart/items/7): no element at index 7 (the array has 3)")
        #expect(
            try failure(#"[{"op":"remove","path":"/missing1/missing2"}]"#, on: cart)
                == #"operation 0 (remove /missing1/missing2): no member "missing1" in the root object"#)
        #expect(
            try failure(#"[{"op":"add","path":"/cart/items/9/name","value":0}]"#, on: cart)
                == "operation 0 (add /cart/items/9/name): no element at index 9 in the array at /cart/items (it has 3)")
        #expect(
            try failure(#"[{"op":"test","path":"/~01","value":"10"}]"#, on: cart)
                == #"operation 0 (test /~01): the value is 10, not "10""#)
        #expect(
            try failure(#"[{"op":"add","path":"/cart/items/0/x","value":1}]"#, on: cart)
                == "operation 0 (add /cart/items/0/x): /cart/items/0 is a number, not an object or array")
        #expect(
            try failure(#"[{"op":"move","from":"/cart","path":"/cart/items/0"}]"#, on: cart)
                == "operation 0 (move /cart to /cart/items/0): cannot move /cart into its own child /cart/items/0")
        #expect(
            try failure(#"[{"op":"copy","from":"/cart/items/-","path":"/y"}]"#, on: cart)
                == #"operation 0 (copy /cart/items/- to /y): "-" names the end of the array at /cart/items, not an element"#)
        #expect(
            try failure(#"[{"op":"remove","path":""}]"#, on: cart)
                == #"operation 0 (remove ""): cannot remove the whole document"#)
        #expect(
            try failure(#"[{"op":"remove","path":"/cart/items/"}]"#, on: cart)
                == #"operation 0 (remove /cart/items/): "" is not an array index"#)
        #expect(
            try failure(#"[{"op":"replace","path":"/a~2","value":1}]"#, on: cart)
                == #"operation 0 (replace /a~2): "/a~2" is not a JSON Pointer: "~" must be followed by 0 or 1"#)
        #expect(
            try failure(#"[{"op":"add","path":"/x","value":1},"remove"]"#, on: cart)
                == "operation 1: an operation must be an object, not a string")
        #expect(try failure(#"{"op":"add"}"#, on: cart) == "invalid JSON Patch: the patch is an object, not an array of operations")
        #expect(try failure(#"[{"op":"add","path":"/-"}]"#, on: "[]") == #"operation 0 (add /-): the "value" member is missing"#)
    }

    @Test("Errors carry their parts for code")
    func errorFields() throws {
        #expect(throws: ActionLogError.patch(.testFailed, operationIndex: 1, operation: "test", path: "/a", reason: "the value is 1, not 2")) {
            try JSONPatch(json(#"[{"op":"test","path":"/a","value":1},{"op":"test","path":"/a","value":2}]"#)).apply(to: ["a": 1])
        }
        #expect(throws: ActionLogError.patch(.notAllowed, operationIndex: 0, operation: "remove", path: "", reason: "cannot remove the whole document")) {
            try JSONPatch(operations: [.remove(path: .root)]).apply(to: [1])
        }
    }

    // MARK: Diff

    @Test("diff edits objects member by member and arrays in the middle")
    func diffExamples() throws {
        let old: JSONValue = ["items": ["a", "b", "c"], "draft": true]
        let new: JSONValue = ["items": ["a", "x", "b", "c"]]
        let patch = JSONPatch.diff(from: old, to: new)
        #expect(patch.description == #"[{"op":"remove","path":"/draft"},{"op":"add","path":"/items/1","value":"x"}]"#)
        #expect(try patch.apply(to: old) == new)

        #expect(JSONPatch.diff(from: old, to: old).operations.isEmpty)
        #expect(JSONPatch.diff(from: 1, to: .number("1.0")).operations == [.replace(path: .root, value: .number("1.0"))])
        #expect(JSONPatch.diff(from: ["a": 1], to: [1]).operations == [.replace(path: .root, value: [1])])

        // A change deep inside one element edits only that element.
        let users = try json(#"{"users":[{"id":1,"name":"Ann"},{"id":2,"name":"Bob"},{"id":3,"name":"Cy"}]}"#)
        let renamed = try json(#"{"users":[{"id":1,"name":"Ann"},{"id":2,"name":"Rob"},{"id":3,"name":"Cy"}]}"#)
        #expect(JSONPatch.diff(from: users, to: renamed).operations == [.replace(path: try pointer("/users/1/name"), value: "Rob")])
    }

    @Test("Inserting or removing one element in the middle of 100 is one operation")
    func singleElementEdits() throws {
        let elements: [JSONValue] = (0..<100).map { .number(String($0)) }
        var inserted = elements
        inserted.insert("new", at: 50)
        let insertion = JSONPatch.diff(from: .array(elements), to: .array(inserted))
        #expect(insertion.operations == [.add(path: try pointer("/50"), value: "new")])

        var removed = elements
        removed.remove(at: 50)
        let removal = JSONPatch.diff(from: .array(elements), to: .array(removed))
        #expect(removal.operations == [.remove(path: try pointer("/50"))])
    }

    @Test("Large arrays beyond the edit table are still diffed correctly")
    func largeArrays() throws {
        let count = 1_500
        let elements: [JSONValue] = (0..<count).map { .number(String($0)) }
        // Changes at both ends leave a 1500 × 1500 middle: edited index by index.
        var changed = elements
        changed[0] = "first"
        changed[count - 1] = "last"
        changed.append("extra")
        let patch = JSONPatch.diff(from: .array(elements), to: .array(changed))
        #expect(try patch.apply(to: .array(elements)) == .array(changed))
        #expect(patch.operations.count == 3)

        // Everything moved: one replacement is smaller than 1500 edits.
        let reversed = JSONValue.array(elements.reversed())
        let reversal = JSONPatch.diff(from: .array(elements), to: reversed)
        #expect(reversal.operations == [.replace(path: .root, value: reversed)])
    }
}
