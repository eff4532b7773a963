import ContextSimCore
import ContextSimReports

/// `throw`: the error leaves the function, and every function that called it with `try`,
/// until a `do`/`catch` or `try?` takes it, or it reaches the entry point's caller, outside
/// the files. A scenario has no errors of the app's own, so the draft keeps one flag,
/// `_threw`: the `throw` sets it, and after each statement that may set it what follows runs
/// only while it is unset. A loop's body runs no more once it is set; `try?` clears it; a
/// `do` block's handler runs when it is set, and clears it first.
extension Drafter {
  static let threwFlag = "_threw"
  /// The test that holds when an error was thrown and not yet caught.
  static let threw = Test(variable: threwFlag, value: .bool(true), holdsWhenEqual: true)

  /// The steps of `throw error`: the flag set, with the Swift line as the step's label.
  mutating func throwSteps(at statement: SwiftStatement) -> [JSONValue] {
    [
      step(
        [
          "let": .string(Self.threwFlag), "value": .bool(true),
          "note": .string("Throws: what follows runs only where the error is caught."),
        ], at: statement)
    ]
  }

  /// Whether a step may set the flag where its caller goes on: itself, or a block that runs
  /// before the step ends (a loop, `performAndWait`, `sync`, a call's `catch`); not a block
  /// sent to run later, whose error stays in it.
  static func mayThrow(_ step: JSONValue) -> Bool {
    guard case .object(let members) = step.kind, let verb = members.first?.key else {
      return false
    }
    if verb == "let", case .string(threwFlag) = members[0].value.kind { return true }
    let waits = ["forEach", "performAndWait", "sync"].contains(verb)
    return members.contains { member in
      guard member.key == "catch" || (waits && member.key == "do"),
        case .array(let inner) = member.value.kind
      else { return false }
      return inner.contains(where: mayThrow)
    }
  }

  /// A statement's steps that may throw, and the statements after it: the flag unset
  /// before the statement, and what follows run only while it stays unset.
  func throwing(_ drafted: [JSONValue], then rest: [JSONValue]) -> [JSONValue] {
    let cleared = JSONValue.object(["let": .string(Self.threwFlag), "value": .bool(false)])
    // Unset once: a statement that inlines another's may start by unsetting it already.
    let head = drafted.first == cleared ? [] : [cleared]
    return head + drafted + rest.map { when($0, Self.threw, holds: false) }
  }

  /// A loop's body that may throw: each pass first notes whether an earlier one threw
  /// (`_goN`), and runs nothing if so.
  func guardingPasses(_ body: [JSONValue], at statement: SwiftStatement) -> [JSONValue] {
    guard body.contains(where: Self.mayThrow) else { return body }
    let go = "_go\(statement.location.line)"
    let threw = Test(variable: go, value: .bool(true), holdsWhenEqual: true)
    let note = JSONValue.object(["let": .string(go), "value": .string("$" + Self.threwFlag)])
    return [note] + body.map { when($0, threw, holds: false) }
  }

  /// After `try? f()` whose steps may throw: the flag cleared, as `try?` takes the error.
  mutating func clearingThrow(_ steps: [JSONValue], at statement: SwiftStatement) -> [JSONValue] {
    guard steps.contains(where: Self.mayThrow) else { return steps }
    return steps + [
      step(["let": .string(Self.threwFlag), "value": .bool(false)], at: statement)
    ]
  }

  /// A `do` block whose lines may throw (``mayThrow(_:)``), and its one handler: run when
  /// the flag is set, after clearing it (`_caughtN` remembers the error was caught).
  mutating func caughtThrow(
    _ inner: [JSONValue], handler: [SwiftStatement], at statement: SwiftStatement
  ) -> [JSONValue] {
    let caught = "_caught\(statement.location.line)"
    let isCaught = Test(variable: caught, value: .bool(true), holdsWhenEqual: true)
    let handlerSteps = scoped { drafter in
      drafter.bind("error", .value("error"))
      return drafter.steps(handler)
    }
    return [step(["let": .string(caught), "value": .bool(false)], at: statement)] + inner + [
      when(
        step(["let": .string(caught), "value": .bool(true)], at: statement), Self.threw,
        holds: true),
      when(
        step(["let": .string(Self.threwFlag), "value": .bool(false)], at: statement), isCaught,
        holds: true),
    ] + handlerSteps.map { when($0, isCaught, holds: true) }
  }
}
