import ContextSimCore
import ContextSimReports

/// One token of Swift source, as the drafter's lexer reads it.
///
/// The drafter needs declarations, statements and call chains, not Swift's full grammar:
/// tokens keep their text and place, and whether a line break came before them (Swift ends
/// a statement at a line break, and a `{` on a new line is not a trailing closure).
struct SwiftToken: Equatable, Sendable {
  enum Kind: Equatable, Sendable {
    /// A name or keyword: `let`, `context`, `` `default` ``, `$0`.
    case identifier
    /// `#selector`, `#if`: a pound keyword, `#` included.
    case poundKeyword
    /// An integer or floating-point literal.
    case number
    /// A string literal; ``SwiftToken/text`` is its contents with escapes resolved and each
    /// interpolation kept as written, `\(url)`.
    case string
    /// `(` `)` `{` `}` `[` `]` `,` `:` `;` `@` and a `.` that starts a member.
    case punctuation
    /// A run of operator characters: `=`, `==`, `?`, `!`, `->`, `??`, `...`.
    case `operator`
    /// The end of the file.
    case end
  }

  var kind: Kind
  var text: String
  var location: SourceLocation
  /// A line break (or the start of the file) comes before it.
  var startsLine: Bool
  /// White space comes right before it: `a ?b` and `a?.b` differ.
  var spaceBefore: Bool
  /// White space comes right after it.
  var spaceAfter = false
  /// For a string: the interpolations' source text, each parsed again on its own.
  var interpolations: [String] = []

  func `is`(_ text: String) -> Bool {
    self.text == text && kind != .string && kind != .end
  }
}
