import ContextSim

/// The scenarios the benchmark measures, generated so their sizes are easy to change.
enum Generated {
  static func decode(_ json: String, name: String) -> Scenario {
    do {
      return try ScenarioDecoder.decode(Array(json.utf8), file: name)
    } catch {
      fatalError("generated scenario \(name) does not decode: \(error)")
    }
  }

  /// Two unsynchronised blocks incrementing one shared property; `synchronised` runs both
  /// on one serial queue instead. The scenario twin of `tsan-race.swift`.
  static func counter(synchronised: Bool) -> Scenario {
    let queue = synchronised ? "counterQueue" : "global"
    let increment =
      #"{"async": "\#(queue)", "do": [{"read": "value", "as": "v"}, {"write": "value", "value": "$v"}]}"#
    return decode(
      #"""
      {"title": "counter", "vars": {"value": 0}, "queues": {"counterQueue": "serial"},
       "main": [\#(increment), \#(increment)]}
      """#, name: synchronised ? "counter-synchronised" : "counter")
  }

  /// `threads` private contexts, each running `steps` steps in its own perform block on
  /// its own objects; `conflicts` of them also write one shared var once.
  static func contexts(threads: Int, steps: Int, conflicts: Int) -> Scenario {
    var contexts: [String] = []
    var blocks: [String] = []
    for t in 0..<threads {
      contexts.append(#""c\#(t)": {"queue": "private"}"#)
      var body: [String] = []
      for k in 0..<steps {
        if t < conflicts && k == steps / 2 {
          body.append(#"{"write": "shared", "value": \#(t)}"#)
        } else {
          body.append(
            k % 2 == 0 ? #"{"insert": "N", "into": "c\#(t)"}"# : #"{"count": "N", "in": "c\#(t)"}"#)
        }
      }
      blocks.append(#"{"perform": "c\#(t)", "do": [\#(body.joined(separator: ", "))]}"#)
    }
    return decode(
      #"""
      {"title": "contexts", "model": {"N": {"attributes": {"t": "string"}}}, "vars": {"shared": 0},
       "contexts": {\#(contexts.joined(separator: ", "))}, "main": [\#(blocks.joined(separator: ", "))]}
      """#, name: "contexts-\(threads)x\(steps)")
  }

  /// A bug that needs `depth` orderings: thread 1 writes `v0` at its last step, each next
  /// thread copies the previous var into its own in its middle, and the last thread checks
  /// at its first step that its var is still 0. The check fails only when all the copies
  /// happened in order before it. Every thread takes `steps` steps.
  static func orderingBug(depth: Int, steps: Int) -> Scenario {
    var vars: [String] = []
    var blocks: [String] = []
    for t in 0...depth {
      vars.append(#""v\#(t)": 0"#)
      var body = Array(repeating: #"{"print": "work"}"#, count: steps)
      if t == 0 {
        body[steps - 1] = #"{"write": "v0", "value": 1}"#
      } else if t < depth {
        body[steps / 2] = #"{"write": "v\#(t)", "value": "$v\#(t - 1)"}"#
      } else {
        body[0] = #"{"write": "v\#(t)", "value": "$v\#(t - 1)"}"#
        body[1] = #"{"expect": {"value": "v\#(t)", "equals": 0}, "label": "bug"}"#
      }
      blocks.append(#"{"async": "global", "do": [\#(body.joined(separator: ", "))]}"#)
    }
    return decode(
      #"""
      {"title": "bug of depth \#(depth)", "vars": {\#(vars.joined(separator: ", "))},
       "main": [\#(blocks.joined(separator: ", "))]}
      """#, name: "bug-depth-\(depth)")
  }

  /// A scenario of about thirty steps with the usual mix: two private contexts doing
  /// fetches and saves, a hand-over to the main queue, and a shared var.
  static var thirtySteps: Scenario {
    decode(
      #"""
      {"title": "thirty steps", "vars": {"done": 0},
       "model": {"Note": {"attributes": {"title": "string"}}},
       "store": {"Note": [{"id": "n1", "title": "a"}, {"id": "n2", "title": "b"}]},
       "contexts": {"a": {"queue": "private"}, "b": {"queue": "private"}},
       "main": [
         {"perform": "a", "do": [
           {"fetch": "Note", "in": "a", "first": true, "as": "x"}, {"get": "x.title"},
           {"set": "x.title", "to": "A"}, {"insert": "Note", "into": "a", "values": {"title": "c"}},
           {"save": "a"}, {"objectID": "x", "as": "id"}, {"count": "Note", "in": "a"},
           {"async": "main", "do": [{"existingObject": "$id", "in": "viewContext", "as": "v"}, {"get": "v.title"}]}]},
         {"perform": "b", "do": [
           {"fetch": "Note", "in": "b", "as": "all"}, {"count": "Note", "in": "b"},
           {"insert": "Note", "into": "b", "values": {"title": "d"}}, {"save": "b"},
           {"count": "Note", "in": "b"}, {"write": "done", "value": 1}]},
         {"fetch": "Note", "in": "viewContext", "as": "shown"}, {"count": "Note", "in": "viewContext"},
         {"forEach": "$shown", "as": "n", "do": [{"get": "n.title"}]},
         {"print": "launch"}, {"print": "more"}, {"read": "done"},
         {"perform": "a", "do": [{"count": "Note", "in": "a"}, {"print": "again"}]}
       ]}
      """#, name: "thirty-steps")
  }
}
