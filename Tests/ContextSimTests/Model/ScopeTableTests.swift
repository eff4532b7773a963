import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Scopes: a capture keeps the bindings it saw, whatever either side binds later")
struct ScopeTableTests {
  @Test("A capture sees what its parent bound before, and not after")
  func captureIsASnapshot() {
    var table = ScopeTable()
    let outer = table.open()
    table[outer, "x"] = .integer(1)
    let block = table.capture(outer)
    table[outer, "x"] = .integer(2)
    table[outer, "y"] = .integer(3)
    #expect(table[block, "x"] == .integer(1))
    #expect(table[block, "y"] == nil)
    #expect(table[outer, "x"] == .integer(2))
    #expect(table.values(in: block) == ["x": .integer(1)])
    #expect(table.values(in: outer) == ["x": .integer(2), "y": .integer(3)])
  }

  @Test("What a capture binds stays in it")
  func captureBindsItsOwn() {
    var table = ScopeTable()
    let outer = table.open()
    table[outer, "x"] = .integer(1)
    let block = table.capture(outer)
    table[block, "x"] = .integer(5)
    table[block, "z"] = .integer(6)
    #expect(table[outer, "x"] == .integer(1))
    #expect(table[outer, "z"] == nil)
    #expect(table.values(in: block) == ["x": .integer(5), "z": .integer(6)])
  }

  @Test("A capture of a capture sees each level as it was when copied")
  func nestedCaptures() {
    var table = ScopeTable()
    let outer = table.open()
    table[outer, "a"] = .integer(1)
    let middle = table.capture(outer)
    table[outer, "a"] = .integer(2)
    table[middle, "b"] = .integer(3)
    let inner = table.capture(middle)
    table[middle, "b"] = .integer(4)
    table[outer, "c"] = .integer(5)
    #expect(table.values(in: inner) == ["a": .integer(1), "b": .integer(3)])
    #expect(table.values(in: middle) == ["a": .integer(1), "b": .integer(4)])
    #expect(table[inner, "c"] == nil)
  }

  @Test("Unbinding a name hides the parent's binding of it")
  func unbindingHides() {
    var table = ScopeTable()
    let outer = table.open()
    table[outer, "x"] = .integer(1)
    let block = table.capture(outer)
    table[block, "x"] = nil
    #expect(table[block, "x"] == nil)
    #expect(table.values(in: block).isEmpty)
    #expect(table[outer, "x"] == .integer(1))
    table[block, "x"] = .integer(7)
    #expect(table[block, "x"] == .integer(7))
  }

  @Test("Rebinding with no capture in between keeps one binding per name")
  func rebindingInPlace() {
    var table = ScopeTable()
    let loop = table.open()
    for i in 0..<100 { table[loop, "n"] = .integer(i) }
    #expect(table[loop, "n"] == .integer(99))
    #expect(table.values(in: loop) == ["n": .integer(99)])
  }

  @Test("A scope's bindings come in the order a dictionary of its own would keep them")
  func order() {
    var table = ScopeTable()
    let outer = table.open()
    table[outer, "a"] = .integer(1)
    table[outer, "b"] = .integer(2)
    let block = table.capture(outer)
    table[block, "c"] = .integer(3)
    table[block, "a"] = .integer(4)
    #expect(Array(table.values(in: block).keys) == ["a", "b", "c"])
  }

  @Test("The walk a fingerprint reads finds each binding once, as the scope sees it")
  func bindingsWalk() {
    var table = ScopeTable()
    let outer = table.open()
    table[outer, "a"] = .integer(1)
    table[outer, "b"] = .integer(2)
    table[outer, "gone"] = .integer(0)
    let middle = table.capture(outer)
    table[outer, "a"] = .integer(9)
    table[middle, "b"] = .integer(3)
    table[middle, "gone"] = nil
    let inner = table.capture(middle)
    table[middle, "b"] = .integer(4)
    table[inner, "c"] = .integer(5)
    table[inner, "c"] = .integer(6)
    for scope in [outer, middle, inner] {
      let walked = table.bindings(in: scope).map { ($0.key, $0.value) }
      #expect(walked.count == table.values(in: scope).count)
      #expect(Dictionary(uniqueKeysWithValues: walked) == table.values(in: scope).dictionary)
    }
    #expect(
      table.values(in: inner).dictionary == ["a": .integer(1), "b": .integer(3), "c": .integer(6)])
  }

  @Test("A task group's parent takes a child's bindings")
  func merge() {
    var table = ScopeTable()
    let parent = table.open()
    table[parent, "kept"] = .integer(1)
    table[parent, "shared"] = .integer(2)
    table.merge(["shared": .integer(3), "new": .integer(4)], into: parent)
    #expect(
      table.values(in: parent) == ["kept": .integer(1), "shared": .integer(3), "new": .integer(4)])
  }
}
