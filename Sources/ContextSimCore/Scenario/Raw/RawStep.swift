/// One step as written, its shape read but its names not yet checked.
///
/// The shape pass (``StepArguments``) builds it from JSON; validation walks it once with
/// the scope, reporting what is wrong and building a ``Step``. Problems with the shape are
/// kept here, not reported at once, so a block that is never validated (its context is
/// unknown, say) does not also report the steps inside it, as format v1 always did.
///
/// Places are ``SourceLocation``s: a JSON line and column here; a Swift result builder
/// would give `#line` and `#column`, with `#fileID` as the decoder's file.
struct RawStep {
  /// Where the step sits in the file's structure: `main[2].perform.do[0]`.
  var path: String
  var location: SourceLocation
  /// Problems with the step itself: not an object, no verb or two, unknown keys.
  var problems: [Diagnostic] = []
  /// The verb and its arguments; nil when the step has no usable verb.
  var verb: (name: String, arguments: any VerbFamily)?
  var label: Field<String> = .absent
  var note: Field<String> = .absent
  /// `"swift"`: the app's own line, shown instead of the one the verb spells.
  var swift: Field<String> = .absent
  /// `"when"`, checked against the variables in scope.
  var when: Field<JSONValue> = .absent
  /// `"catch"`: the steps that handle the call's error, for a verb that throws.
  var handler: Field<[RawStep]> = .absent
}

/// A value and where it was written.
struct Located<Value> {
  var value: Value
  var location: SourceLocation
}

/// One argument of a raw step: not written, written with the right shape, or written
/// with the wrong one (its error kept until validation reaches it).
enum Field<Value> {
  case absent
  case present(Located<Value>)
  case malformed(Diagnostic)

  var isAbsent: Bool {
    if case .absent = self { true } else { false }
  }

  /// The value if it was written with the right shape, reporting nothing.
  var value: Value? {
    if case .present(let located) = self { located.value } else { nil }
  }
}

/// What validation knows about the step it is checking: enough to place an error.
struct StepSite {
  var verb: String
  var path: String
  var location: SourceLocation
  /// Labels of this step and of the steps that contain it, innermost first.
  var labels: [String]
}

/// What a valid step does, and the line of Swift it stands for: a verb family makes both
/// together, so no action exists without its Swift.
struct Statement {
  var action: Action
  var swift: String

  init(_ action: Action, swift: String) {
    self.action = action
    self.swift = swift
  }
}
