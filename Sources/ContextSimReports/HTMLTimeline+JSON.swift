import ContextSimCore

/// The run as the compact JSON the page embeds, and the escaping that keeps it inert inside
/// a `<script type="application/json">` element.
///
/// Each position's state is written as what changed since the position before: a section
/// left out (`t` threads, `c` contexts, `s` store, `v` vars) is as before, and in `t` and
/// `c` a `0` is an entry as before. A 73-step run is about 30 KB this way instead of 200.
///
///     {"lanes":["main"],"contexts":["viewContext"],"steps":[{"t":0,"s":"let x = 1",…}],
///      "violations":[],"arrows":[[1,3,0]],"states":[{"t":[[0,"next: let x = 1",["main"]]],
///      "c":[…],"s":[],"v":[]},{"t":[[1,"next: …",["main"]]]}]}
extension TimelineRun {
  /// The whole run as one JSON value.
  var json: JSONValue {
    .object([
      "lanes": .array(lanes.map(JSONValue.string)),
      "contexts": .array(contexts.map(JSONValue.string)),
      "steps": .array(steps.map(\.json)),
      "violations": .array(violations.map(Self.json)),
      "arrows": .array(
        arrows.map { .array([.integer($0.from), .integer($0.to), .integer($0.isMerge ? 1 : 0)]) }
      ),
      "states": .array(
        states.indices.map { i in states[i].json(since: i == 0 ? nil : states[i - 1]) }),
    ])
  }

  static func json(_ v: Problem) -> JSONValue {
    .object([
      "step": .integer(v.step),
      "tag": .string(v.tag),
      "kind": .string(v.kind),
      "headline": .string(v.headline),
      "crash": v.crash.map(JSONValue.string),
      "details": v.details.isEmpty ? nil : .array(v.details.map(JSONValue.string)),
      "at": .string(v.place),
    ])
  }
}

extension TimelineRun.Step {
  var json: JSONValue {
    .object([
      "t": .integer(lane),
      "s": .string(swift),
      "l": .array(lines.map(JSONValue.integer)),
      "d": .array(did.map(JSONValue.string)),
      "c": context.map(JSONValue.integer),
      "v": violations.isEmpty ? nil : .array(violations.map(JSONValue.integer)),
      "at": .string(place),
      "q": .string(queue),
      "note": note.map(JSONValue.string),
      "m": mergedSave.map(JSONValue.integer),
      "why": because.map(JSONValue.string),
      "k": skipped ? .integer(1) : nil,
    ])
  }
}

extension TimelineRun.State {
  /// This state, as what changed since `previous` when there is one.
  func json(since previous: Self?) -> JSONValue {
    func changed<T: Equatable>(_ mine: [T], _ theirs: [T]?, _ write: (T) -> JSONValue)
      -> JSONValue?
    {
      guard let theirs else { return .array(mine.map(write)) }
      guard mine != theirs else { return nil }
      return .array(
        mine.indices.map { i in
          i < theirs.count && theirs[i] == mine[i] ? .integer(0) : write(mine[i])
        })
    }
    func whole<T: Equatable>(_ mine: [T], _ theirs: [T]?, _ write: (T) -> JSONValue) -> JSONValue? {
      mine == theirs ? nil : .array(mine.map(write))
    }
    return .object([
      "t": changed(threads, previous?.threads) { thread in
        .array([
          thread.line.map(JSONValue.integer) ?? JSONValue(.null, at: JSONValue.nowhere),
          .string(thread.status), .array(thread.holds.map(JSONValue.string)),
        ])
      },
      "c": changed(contexts, previous?.contexts) { context in
        .object([
          "n": .string(context.name), "q": .string(context.queue),
          "p": context.parent.map(JSONValue.string), "u": .integer(context.unsaved),
          "o": .array(
            context.objects.map { object in
              let flags =
                (object.isFault ? "f" : "") + (object.hasChanges ? "c" : "")
                + (object.isDeleted ? "d" : "")
              return .array([.string(object.id), .string(flags), Self.json(object.fields)])
            }),
        ])
      },
      "s": whole(store, previous?.store) { .array([.string($0.id), Self.json($0.fields)]) },
      "v": whole(vars, previous?.vars) { .array([.string($0.key), .string($0.value)]) },
    ])
  }

  static func json(_ fields: [TimelineRun.Field]) -> JSONValue {
    .array(
      fields.map { field in
        .array(
          [.string(field.key), .string(field.value)] + (field.stored.map { [.string($0)] } ?? []))
      })
  }
}

extension HTMLTimeline {
  /// `value` as JSON on one line, safe inside a `<script>` element: `<`, `>` and `&` are
  /// written as `\u003c`, `\u003e` and `\u0026`, so no text from a scenario can close the
  /// element or open a comment, and U+2028 and U+2029 are escaped for older parsers.
  ///
  ///     ["</script>"]  →  ["\u003c/script\u003e"]
  static func scriptJSON(_ value: JSONValue) -> String {
    // These characters can only stand inside JSON strings, where the escapes mean the same.
    var out = ""
    for scalar in JSONWriter.compact(value).unicodeScalars {
      switch scalar {
      case "<": out += "\\u003c"
      case ">": out += "\\u003e"
      case "&": out += "\\u0026"
      case "\u{2028}": out += "\\u2028"
      case "\u{2029}": out += "\\u2029"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
