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
    do {
      _ = try ScenarioDecoder.decode(Array(JSONWriter.write(scenario).utf8), file: "draft")
      return []
    } catch {
      var missing: [(name: String, path: String?)] = []
      for problem in error.errors {
        let prefix = "unknown context \""
        guard problem.message.hasPrefix(prefix) else { continue }
        let name = String(problem.message.dropFirst(prefix.count).prefix { $0 != "\"" })
        if !missing.contains(where: { $0.name == name }) { missing.append((name, problem.path)) }
      }
      return missing
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
}
