/// `{"print": "text, $vars interpolated"}`: narration in the output.
struct PrintVerb: VerbFamily {
  enum Verb: String, CaseIterable {
    case print
  }

  static func schema(of verb: Verb) -> StepSchema { StepSchema(.string) }

  var text: Field<String>

  func statement(_ step: StepSite, scope: inout StepScope, in decoder: inout ScenarioDecoder)
    -> Statement?
  {
    guard let text = decoder.read(text) else { return nil }
    let parts = Self.template(text.value)
    for case .variable(let name) in parts where !decoder.isVisible(name, scope) {
      decoder.unknownVariable(name, at: text.location, path: step.path, scope: scope)
    }
    let swift = parts.map { part in
      switch part {
      case .text(let words): words
      case .variable(let name): "\\(\(name))"
      }
    }
    return Statement(.print(parts), swift: "print(\"" + swift.joined() + "\")")
  }

  /// Splits `print` text into words and `$variables`: `"saved $n notes"`.
  static func template(_ text: String) -> [TemplatePart] {
    var parts: [TemplatePart] = []
    var literal = ""
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      let isNameStart = { (s: Unicode.Scalar) in s == "_" || s.properties.isAlphabetic }
      guard scalar == "$", let next = scalars.first, isNameStart(next) else {
        literal.unicodeScalars.append(scalar)
        continue
      }
      var name = ""
      while let s = scalars.first, s == "_" || s.properties.isAlphabetic || ("0"..."9").contains(s)
      {
        name.unicodeScalars.append(s)
        scalars.removeFirst()
      }
      if !literal.isEmpty {
        parts.append(.text(literal))
        literal = ""
      }
      parts.append(.variable(name))
    }
    if !literal.isEmpty { parts.append(.text(literal)) }
    return parts
  }
}

extension PrintVerb {
  /// Reads a step's arguments from its JSON; the memberwise initializer builds them directly.
  init(_ verb: Verb, _ arguments: StepArguments) {
    text = arguments.string(what: "\"print\"")
  }
}
