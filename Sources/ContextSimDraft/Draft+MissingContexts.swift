import ContextSimCore
import ContextSimReports

/// A context the draft uses whose making it did not model (`backgroundContext =
/// store.makeContext()` in a branch it could not decide): a draft that names it would not
/// run. It is declared as a private-queue context, the kind apps make off the main queue,
/// and a `notModelled` step first in `main` keeps every run past it from being clean.
extension Draft {
  /// The contexts `scenario` uses and never declares, with the path of a step that uses
  /// each, from the decoder's errors.
  static func missingContexts(in scenario: JSONValue) -> [(name: String, path: String?)] {
    missingContexts(among: problems(in: scenario))
  }

  /// The contexts the decoder's `problems` say are unknown, with a path that uses each.
  static func missingContexts(among problems: [Diagnostic]) -> [(name: String, path: String?)] {
    var missing: [(name: String, path: String?)] = []
    for problem in problems {
      let prefix = "unknown context \""
      guard problem.message.hasPrefix(prefix) else { continue }
      let name = String(problem.message.dropFirst(prefix.count).prefix { $0 != "\"" })
      if !missing.contains(where: { $0.name == name }) { missing.append((name, problem.path)) }
    }
    return missing
  }

  /// What the decoder finds wrong with a drafted scenario; none when it runs.
  static func problems(in scenario: JSONValue) -> [Diagnostic] {
    do {
      _ = try ScenarioDecoder.decode(Array(JSONWriter.write(scenario).utf8), file: "draft")
      return []
    } catch {
      return error.errors
    }
  }

  /// `scenario` with `names` declared as private-queue contexts, and a `notModelled` step
  /// saying so first in `main`.
  static func declaring(_ names: [String], in scenario: JSONValue, why: String) -> JSONValue {
    guard case .object(var members) = scenario.kind else { return scenario }
    let declared = names.map { ($0, JSONValue.ordered([("queue", .string("private"))])) }
    let step = JSONValue.ordered([("notModelled", .string(why)), ("label", .string("draft"))])
    func member(_ key: String, _ value: JSONValue) -> JSONValue.Member {
      JSONValue.Member(key: key, keyLocation: scenario.location, value: value)
    }
    if let index = members.firstIndex(where: { $0.key == "contexts" }),
      case .object(let existing) = members[index].value.kind
    {
      members[index].value = .ordered(existing.map { ($0.key, $0.value) } + declared)
    } else if let main = members.firstIndex(where: { $0.key == "main" }) {
      members.insert(member("contexts", .ordered(declared)), at: main)
    }
    if let index = members.firstIndex(where: { $0.key == "main" }),
      case .array(let steps) = members[index].value.kind
    {
      members[index].value = JSONValue(.array([step] + steps), at: scenario.location)
    }
    return JSONValue(.object(members), at: scenario.location)
  }

  /// `scenario` with each of `names` that one `newContext` step makes, in a block that runs
  /// once (not in a loop, an observer or a task group's child), declared in `"contexts"` with
  /// that step's queue, parent and options, and the step taken out. A line outside the block
  /// (a later call, the stack's next user) can then name it, as Swift names the property the
  /// block stored it in. The context then exists from launch: a use before its block ran,
  /// which in the app would find the property still nil, is not told apart. A parent made
  /// the same way is declared with it.
  static func hoisting(_ names: [String], in scenario: JSONValue) -> JSONValue {
    guard case .object(var members) = scenario.kind,
      let mainIndex = members.firstIndex(where: { $0.key == "main" })
    else { return scenario }
    var declared: [(String, JSONValue)] = []
    var pending = names
    var steps = members[mainIndex].value
    while let name = pending.popLast() {
      guard !declared.contains(where: { $0.0 == name }),
        let (options, rest) = takingNewContext(name, from: steps, repeating: false)
      else { continue }
      steps = rest
      declared.append((name, options))
      if case .object(let keys) = options.kind,
        case .string(let parent)? = keys.first(where: { $0.key == "parent" })?.value.kind
      {
        pending.append(parent)
      }
    }
    guard !declared.isEmpty else { return scenario }
    members[mainIndex].value = steps
    if let index = members.firstIndex(where: { $0.key == "contexts" }),
      case .object(let existing) = members[index].value.kind
    {
      members[index].value = .ordered(existing.map { ($0.key, $0.value) } + declared.reversed())
    } else {
      members.insert(
        JSONValue.Member(
          key: "contexts", keyLocation: scenario.location, value: .ordered(declared.reversed())),
        at: mainIndex)
    }
    return JSONValue(.object(members), at: scenario.location)
  }

  /// The options of the one `newContext` step making `name` in `steps` (its keys but the
  /// verb, label and Swift), and the steps without it; nil when none makes it, more than one
  /// does, or it sits where it may run more than once.
  private static func takingNewContext(_ name: String, from steps: JSONValue, repeating: Bool)
    -> (options: JSONValue, rest: JSONValue)?
  {
    var found: JSONValue?
    var ambiguous = false
    func visit(_ value: JSONValue, repeating: Bool) -> JSONValue {
      switch value.kind {
      case .array(let items):
        var kept: [JSONValue] = []
        for item in items {
          if case .object(let keys) = item.kind, keys.first?.key == "newContext",
            case .string(name) = keys[0].value.kind
          {
            if found != nil || repeating { ambiguous = true }
            found = .ordered(
              keys.dropFirst().filter { !["label", "swift", "note"].contains($0.key) }.map {
                ($0.key, $0.value)
              })
            continue
          }
          kept.append(visit(item, repeating: repeating))
        }
        return JSONValue(.array(kept), at: value.location)
      case .object(var keys):
        let loops = ["forEach", "observe", "taskGroup", "fetchedResultsController"]
        let again = repeating || keys.first.map { loops.contains($0.key) } == true
        for i in keys.indices { keys[i].value = visit(keys[i].value, repeating: again) }
        return JSONValue(.object(keys), at: value.location)
      default:
        return value
      }
    }
    let rest = visit(steps, repeating: repeating)
    guard let found, !ambiguous else { return nil }
    return (found, rest)
  }
}
