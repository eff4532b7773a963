import ContextSimCore

/// A scenario as the program it stands for: each step's Swift on lines of its own, a
/// block's steps indented under the line that opens it and closed with `}`, a `catch` as
/// `do { … } catch { … }`, as the app's source would read.
///
/// The lesson stepper's code pane and the HTML page show it whole and mark each thread's
/// line on it, as Python Tutor marks the line about to run.
public struct ProgramListing: Sendable {
  /// One line of the listing.
  public struct Line: Sendable, Equatable {
    /// The Swift, without indentation.
    public var text: String
    /// How many blocks deep the line is.
    public var depth: Int
    /// The step (its index in ``Scenario/allSteps``) the line belongs to; nil for a `}`.
    public var step: Int?
  }

  /// Every line, in source order.
  public private(set) var lines: [Line] = []
  private var firstLine: [Int: Int] = [:]

  /// The listing of a scenario's `main`, with every block inside it.
  public init(_ scenario: Scenario) {
    list(scenario.main, depth: 0)
  }

  /// The first line of a step, by its index in ``Scenario/allSteps``.
  public func line(ofStep index: Int) -> Int? { firstLine[index] }

  /// The lines a step spans with its block, from its first line to its closing `}`.
  public func lines(ofStep index: Int) -> Range<Int>? {
    guard let first = firstLine[index] else { return nil }
    var end = first + 1
    while end < lines.count && lines[end].depth > lines[first].depth { end += 1 }
    // The `}` closing the step's block sits at the step's own depth.
    if end < lines.count && lines[end].step == nil && lines[end].depth == lines[first].depth {
      end += 1
    }
    return first..<end
  }

  private mutating func emit(_ text: String, _ depth: Int, _ step: Int?) {
    lines.append(Line(text: text, depth: depth, step: step))
  }

  private mutating func list(_ steps: [Step], depth: Int) {
    for step in steps { list(step, depth: depth) }
  }

  private mutating func list(_ step: Step, depth outer: Int) {
    firstLine[step.index] = lines.count
    var depth = outer
    let guarded = step.source == nil ? step.condition : nil
    if let guarded {
      emit("if \(guarded.swiftTest) {", depth, step.index)
      depth += 1
    }
    if step.handler != nil {
      emit("do {", depth, step.index)
      depth += 1
    }
    if case .taskGroup(let sequence, let bind, let child, let then) = step.action,
      step.source == nil
    {
      // `then` runs for each child as it finishes, seeing the child's variables: the
      // `for await` over the group's results.
      emit("await withTaskGroup(of: ChildResult.self) { group in", depth, step.index)
      emit("for \(bind) in \(sequence.swift) {", depth + 1, step.index)
      emit("group.addTask {", depth + 2, step.index)
      list(child, depth: depth + 3)
      emit("}", depth + 2, nil)
      emit("}", depth + 1, nil)
      emit("for await result in group {", depth + 1, step.index)
      list(then, depth: depth + 2)
      emit("}", depth + 1, nil)
      emit("}", depth, nil)
    } else {
      var parts = Self.statements(step.source ?? step.statement)
      let body = step.action.body
      if !body.isEmpty, let last = parts.last, !last.hasSuffix("{") && !last.hasSuffix(" in") {
        parts[parts.count - 1] = last + " {"
      }
      for part in parts { emit(part, depth, step.index) }
      if !body.isEmpty {
        list(body, depth: depth + 1)
        emit("}", depth, nil)
      }
    }
    if let handler = step.handler {
      depth -= 1
      emit("} catch {", depth, nil)
      list(handler, depth: depth + 1)
      emit("}", depth, nil)
    }
    if guarded != nil { emit("}", outer, nil) }
  }

  /// A line the verbs join with `; ` split into its statements, leaving string literals
  /// whole: `let c = …; c.parent = viewContext` is two lines of a listing.
  static func statements(_ line: String) -> [String] {
    var out: [String] = []
    var current = ""
    var inString = false
    var previous: Character = " "
    var chars = line.makeIterator()
    while let c = chars.next() {
      if c == "\"" && previous != "\\" { inString.toggle() }
      if c == ";" && !inString {
        out.append(current.trimmed)
        current = ""
        previous = c
        continue
      }
      current.append(c)
      previous = c
    }
    if !current.trimmed.isEmpty || out.isEmpty { out.append(current.trimmed) }
    return out.filter { !$0.isEmpty }
  }
}
