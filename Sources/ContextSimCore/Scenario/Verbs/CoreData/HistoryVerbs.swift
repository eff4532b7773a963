/// `{"fetchHistory": CONTEXT, "after": "$token", "as": VAR}`:
/// `NSPersistentHistoryChangeRequest.fetchHistory(after:)` executed in a context
/// (semantics-2 §6.4), a ctxsim addition to format v1.
///
/// It is a request like a fetch: a checked call of the context (`executeRequest:error:`),
/// which a child sends up to its parents, and it throws. `after` is a token read from a
/// transaction or a remote-change notification, or null (or absent) for the whole history.
/// The store must track history: without `"persistentHistory": {"tracking": true}` the
/// step is refused, as there would be nothing to read.
struct HistoryVerbs: VerbFamily {
  enum Verb: String, CaseIterable {
    case fetchHistory
  }

  static func schema(of verb: Verb) -> StepSchema {
    StepSchema(.string, [.init("after", .types(["string", "integer", "null"])), .bind, .try])
  }

  var context: Field<String>
  var after: Field<JSONValue>
  var bind: Field<String>
  var tryMode: Field<TryMode>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    let path = step.path
    guard decoder.persistentHistory.tracking else {
      decoder.fail(
        "\"fetchHistory\" needs a store that tracks history",
        fix: "add \"persistentHistory\": {\"tracking\": true} at the top level",
        at: step.location, path: path)
      return nil
    }
    guard let name = decoder.read(context),
      let context = decoder.contextName(name, path: path, scope: scope)
    else { return nil }
    var token: Expression?
    if let json = decoder.read(after), json.value.kind != .null {
      guard
        let expression = decoder.expression(json.value, path: path, scope: scope, attribute: nil)
      else { return nil }
      guard Self.holdsToken(expression, scope) else {
        decoder.fail(
          "\"after\" takes a history token",
          fix: "read one with {\"get\": \"tx.token\"} or "
            + "{\"get\": \"notification.historyToken\"}, or write null for the whole history",
          at: json.location, path: path)
        return nil
      }
      token = expression
    }
    let mode = decoder.tryMode(tryMode)
    let bind = decoder.binding(self.bind, .transactions, step, scope: &scope)
    let request = "NSPersistentHistoryChangeRequest.fetchHistory(after: \(token?.swift ?? "nil"))"
    let swift =
      bind.map {
        "let \($0) = (\(mode.keyword) \(context).execute(\(request)) as? NSPersistentHistoryResult)?"
          + ".result as? [NSPersistentHistoryTransaction] ?? []"
      } ?? "\(mode.keyword) \(context).execute(\(request))"
    return Statement(
      .fetchHistory(context: context, after: token, bind: bind, try: mode), swift: swift)
  }

  /// A token is a whole number: a variable holding one (or nil), or a literal.
  private static func holdsToken(_ expression: Expression, _ scope: StepScope) -> Bool {
    switch expression {
    case .literal(let value):
      if case .integer = value { true } else { false }
    case .variable(let name):
      switch scope.bindings[name] {
      case .value?, .unknown?, nil: true
      default: false
      }
    case .list: false
    }
  }

  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    context = arguments.string(what: "a context name")
    after = arguments.value("after")
    bind = arguments.string("as", what: "\"as\"")
    tryMode = arguments.tryMode()
  }
}
