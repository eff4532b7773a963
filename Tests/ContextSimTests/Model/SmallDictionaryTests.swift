import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("SmallDictionary: a dictionary's answers from an array of a few entries")
struct SmallDictionaryTests {
  /// Keys "k0", "k1", … with the values 0, 1, …, set in that order.
  private func table(_ count: Int) -> SmallDictionary<NamedNumber> {
    var table = SmallDictionary<NamedNumber>()
    for i in 0..<count { table["k\(i)"] = i }
    return table
  }

  @Test("Setting, replacing and removing answer as a dictionary does, in insertion order")
  func setReplaceRemove() {
    var values: NamedValues = ["title": .string("a")]
    values["done"] = .bool(false)
    values["title"] = .string("b")
    #expect(values["title"] == .string("b"))
    #expect(values["missing"] == nil)
    #expect(Array(values.keys) == ["title", "done"], "a replaced value keeps its place")
    values["title"] = nil
    #expect(Array(values.keys) == ["done"])
    values["title"] = nil
    #expect(values.count == 1, "removing a missing key changes nothing")
  }

  @Test("Equality ignores order, as a dictionary's does, but not values or extra keys")
  func equality() {
    let ab: NamedValues = ["a": .integer(1), "b": .integer(2)]
    let ba: NamedValues = ["b": .integer(2), "a": .integer(1)]
    #expect(ab == ba)
    #expect(ab != ["a": .integer(1), "b": .integer(3)])
    #expect(ab != ["a": .integer(1)])
    #expect(ab != ["a": .integer(1), "b": .integer(2), "c": .null])
  }

  @Test("A dictionary's entries come in the order of their keys, and go back unchanged")
  func fromDictionary() {
    let dictionary: [String: Value] = ["c": .integer(3), "a": .integer(1), "b": .integer(2)]
    let values = NamedValues(dictionary)
    #expect(Array(values.keys) == ["a", "b", "c"])
    #expect(values.dictionary == dictionary)
  }

  @Test("merge sets the other's values over these and keeps the keys it does not have")
  func merge() {
    let snapshot: NamedValues = ["title": .string("a"), "rank": .integer(1)]
    let changes: NamedValues = ["rank": .integer(2), "done": .bool(true)]
    let merged = snapshot.merging(changes)
    #expect(merged == ["title": .string("a"), "rank": .integer(2), "done": .bool(true)])
    #expect(Array(merged.keys) == ["title", "rank", "done"])
    var empty = NamedValues()
    empty.merge(changes)
    #expect(empty == changes)
  }

  @Test("Pairs set in turn: the last value for a key wins")
  func pairs() {
    let values = NamedValues([("a", .integer(1)), ("b", .integer(2)), ("a", .integer(3))])
    #expect(values == ["a": .integer(3), "b": .integer(2)])
    #expect(Array(values.keys) == ["a", "b"])
  }

  @Test("The default subscript adds a key once and changes its value in place")
  func defaultSubscript() {
    var ids = SmallDictionary<NamedList>()
    ids["Note", default: []].append(1)
    ids["Note", default: []].append(2)
    ids["Tag", default: []].append(3)
    #expect(ids["Note"] == [1, 2])
    #expect(ids["Tag"] == [3])
    #expect(ids.count == 2)
  }

  @Test("Used as a set, a key goes in once, past the scan limit too")
  func insertKey() {
    var seen = SmallDictionary<SeenName>()
    var added = [seen.insertKey("a"), seen.insertKey("a")]
    for i in 0..<40 { added.append(seen.insertKey("k\(i)")) }
    added += [seen.insertKey("k39"), seen.insertKey("a")]
    #expect(added == [true, false] + Array(repeating: true, count: 40) + [false, false])
    #expect(seen.count == 41)
    #expect(Array(seen.keys.prefix(2)) == ["a", "k0"])
  }

  @Test("filter and mapValues keep the order and the keys")
  func filterAndMap() {
    let values: NamedValues = ["a": .integer(1), "b": .string("x"), "c": .integer(3)]
    let integers = values.filter { if case .integer = $0.value { true } else { false } }
    #expect(Array(integers.keys) == ["a", "c"])
    let nulls = values.mapValues { _ in .null }
    #expect(Array(nulls.keys) == ["a", "b", "c"])
    #expect(nulls.values.allSatisfy { $0 == .null })
  }

  @Test(
    "Past the scan limit every key is still found, after removals too",
    arguments: [SmallDictionary<NamedNumber>.scanLimit, 40, 300])
  func manyKeys(count: Int) {
    var table = table(count)
    for i in 0..<count { #expect(table["k\(i)"] == i) }
    #expect(table["k\(count)"] == nil)
    // Removing from the front moves every later entry: each must still be found.
    for i in stride(from: 0, to: count, by: 3) { table["k\(i)"] = nil }
    for i in 0..<count {
      #expect(table["k\(i)"] == (i % 3 == 0 ? nil : i))
    }
    table["k0"] = -1
    #expect(table["k0"] == -1)
    #expect(table.keys.last == "k0", "a key set again after its removal goes to the end")
  }

  @Test("A large table's filter, merge and copies find their keys")
  func largeTableOperations() {
    let big = table(100)
    let even = big.filter { $0.value % 2 == 0 }
    #expect(even.count == 50)
    #expect(even["k98"] == 98)
    #expect(even["k97"] == nil)
    var merged = table(20)
    merged.merge(big.mapValues { $0 + 1000 })
    #expect(merged.count == 100)
    #expect(merged["k5"] == 1005)
    #expect(merged["k99"] == 1099)
    var copy = big
    copy["k50"] = nil
    #expect(big["k50"] == 50, "a copy's change leaves the original as it was")
    #expect(copy["k51"] == 51)
    #expect(copy == big.filter { $0.key != "k50" })
  }
}

/// Lists of numbers by name: a table whose values are buffers of their own.
private struct NamedList: SmallDictionaryEntry {
  let key: String
  var value: [Int]
}

/// Names seen, without values: a table used as a set.
private struct SeenName: SmallDictionaryEntry {
  let key: String
  var value: Void
}
