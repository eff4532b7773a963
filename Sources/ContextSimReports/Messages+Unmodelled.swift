import ContextSimCore

/// What reports say of lines a run passed without modelling them.
extension Messages {
  /// The summary of a run with no violation that passed unmodelled lines: not clean.
  ///
  ///     No violations in what ctxsim modelled, but the run passed 1 line it could not model:
  ///       Store.swift:14:9  manager.saveAll()
  ///         a call ctxsim cannot resolve
  ///     Not clean: what that line does is unknown (exit 3).
  public static func unmodelledRun(_ lines: [UnmodelledLine]) -> [String] {
    let n = lines.count
    return
      [
        "No violations in what ctxsim modelled, but the run passed \(lineCount(n)) it could not model:"
      ]
      + unmodelledList(lines)
      + ["Not clean: what \(n == 1 ? "that line does" : "those lines do") is unknown (exit 3)."]
  }

  /// The lines a run with violations, or one cut short, also passed without modelling them.
  public static func unmodelledToo(_ lines: [UnmodelledLine]) -> [String] {
    ["The run also passed \(lineCount(lines.count)) ctxsim could not model:"]
      + unmodelledList(lines)
  }

  /// Each line as `place  swift`, then why, indented.
  public static func unmodelledList(_ lines: [UnmodelledLine], indent: String = "  ") -> [String] {
    lines.flatMap { ["\(indent)\($0.place)  \($0.swift)", "\(indent)  \($0.why)"] }
  }

  static func lineCount(_ n: Int) -> String { n == 1 ? "1 line" : "\(n) lines" }
}
