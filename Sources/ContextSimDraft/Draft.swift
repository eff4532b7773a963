import ContextSimCore
import ContextSimReports
import Foundation

/// A scenario drafted from an app's own Swift: `ctxsim draft PhotoDownloader.swift`.
///
/// The drafter reads the files with its own parser (``SwiftParser``: no outside package and
/// no dependence on one compiler's output), finds the classes that use Core Data, and writes
/// what each entry point does as scenario steps, every step labelled with its file and line
/// and carrying the Swift it stands for. What it does not model stays in the draft as a
/// `notModelled` step saying why, so the whole function shows and a run that passes it is
/// never reported clean. docs/draft.md says what
/// is recognised and what is stood in.
public struct Draft: Sendable {
  /// What steers a draft.
  public struct Options: Sendable {
    /// Calls to make, as Swift (`download(urls, into: album)`); empty calls every
    /// non-private method of each class, in source order.
    public var calls: [String] = []
    /// How many sample values a collection argument gets, and rows each fetched entity has.
    public var items = 4
    /// The model, as a scenario's `"model"` object (from an `.xcdatamodeld`); nil infers it.
    public var model: JSONValue?
    /// The sample item (from 1) for which an injected dependency fails, as a test's fake
    /// does: its `try?` call gives nil for that item.
    public var failingItem: Int?
    /// Whether the draft declares the design clean, `"expect": {"violations": []}`, for
    /// `check` to hold it to.
    public var declaresClean = false
    /// The way each condition on values only goes, by place (`Store.swift:14:9`): a path
    /// of ``Draft/paths(_:options:limit:)``.
    public var decisions: [String: Bool] = [:]
    /// Whether such conditions are decided (as `decisions` says, else as holding) rather
    /// than kept as lines not modelled. Only ``Draft/paths(_:options:limit:)`` decides
    /// them, as it drafts every way; a draft on its own would take one way unannounced.
    public var decidesValues = false

    /// Options for a draft; the defaults call every method with four sample items.
    public init(
      calls: [String] = [], items: Int = 4, model: JSONValue? = nil, failingItem: Int? = nil
    ) {
      self.calls = calls
      self.items = items
      self.model = model
      self.failingItem = failingItem
    }
  }

  /// One Swift file to read.
  public struct Source: Sendable {
    /// The file's name as labels show it: `PhotoDownloader.swift`.
    public var name: String
    /// The Swift, as the file holds it.
    public var text: String

    /// A file named `name` holding `text`.
    public init(name: String, text: String) {
      self.name = name
      self.text = text
    }
  }

  /// The scenario, as the JSON a file holds.
  public private(set) var scenario: JSONValue
  /// One line per entry point and per stand-in, for a summary before a run.
  public private(set) var summary: [String]
  /// Lines the draft keeps without modelling them, each once, in the order drafted: a run
  /// that passes one of them is never clean.
  public private(set) var unmodelled: [Line]
  /// The conditions on values only this draft decided, in the order met: its path.
  public private(set) var decisions: [Decision]
  /// How many lines the draft keeps without modelling them.
  public var notModelled: Int { unmodelled.count }

  /// A line of the app's Swift, where it is written, and what the draft says of it.
  public struct Line: Sendable, Equatable {
    /// `Store.swift:14:9`.
    public var place: String
    /// The line as written.
    public var swift: String
    /// Why it is not modelled.
    public var why: String
  }

  /// Each file's lines, by name, to place a step's line.
  private let lines: [String: [String]]

  /// Drafts a scenario from `sources`.
  public init(_ sources: [Source], options: Options = Options()) {
    self.init(parsed: Self.parse(sources), options: options)
  }

  /// The sources read as Swift, once for every draft made of them.
  static func parse(_ sources: [Source]) -> SwiftModule {
    SwiftModule(sources.map { SwiftParser.parse($0.text, name: $0.name) })
  }

  /// Drafts a scenario from files already read.
  init(parsed module: SwiftModule, options: Options = Options()) {
    let files = module.files
    lines = Dictionary(files.map { ($0.name, $0.lines) }, uniquingKeysWith: { first, _ in first })
    var drafter = Drafter(module: module, options: options)
    scenario = drafter.draft()
    summary = drafter.summary
    unmodelled = drafter.unmodelled.map { Line(place: $0.place, swift: $0.swift, why: $0.why) }
    decisions = drafter.decisions.map {
      Decision(place: $0.place, swift: $0.swift, holds: $0.holds)
    }
    var missing = Self.missingContexts(in: scenario)
    if !missing.isEmpty {
      // A context a block made (a stack's completion) and a later line uses: declared,
      // unless the name is also a variable's, which the declaration would not reach.
      let hoisted = Self.hoisting(missing.map(\.name), in: scenario)
      let problems = Self.problems(in: hoisted)
      if problems.allSatisfy({ $0.message.hasPrefix("unknown context") }) {
        scenario = hoisted
        missing = Self.missingContexts(among: problems)
      }
    }
    guard !missing.isEmpty else { return }
    for (name, path) in missing {
      summary.append("\(name): made by lines not modelled, taken as a private-queue context")
      let used = path.flatMap { swiftLine(ofStepAt: $0) }
      unmodelled.append(
        Line(
          place: used?.place ?? "draft", swift: used?.swift ?? name,
          why: "uses \(name), made by lines ctxsim could not model"))
    }
    let names = missing.map(\.name).joined(separator: ", ")
    scenario = Self.declaring(
      missing.map(\.name), in: scenario,
      why: "\(names): made by lines ctxsim could not model, taken as a private-queue context")
  }

  /// The scenario as indented JSON, ending in a line break.
  public var json: String { JSONWriter.write(scenario) + "\n" }
}

extension Draft {
  /// Where in the app's Swift the step at a scenario path was drafted from, as
  /// `File.swift:31:5` (the line's first character), with the line itself.
  public func swiftLine(ofStepAt path: String) -> (place: String, swift: String)? {
    guard let label = label(ofStepAt: path) else { return nil }
    let base = label.split(separator: "#").first.map(String.init) ?? label
    guard let colon = base.lastIndex(of: ":"), let line = Int(base[base.index(after: colon)...])
    else { return nil }
    let file = String(base[..<colon])
    guard let text = lines[file], text.indices.contains(line - 1) else { return nil }
    let written = text[line - 1]
    let column =
      (written.firstIndex { !$0.isWhitespace }.map {
        written.distance(from: written.startIndex, to: $0)
      } ?? 0) + 1
    return ("\(file):\(line):\(column)", written.trimmingCharacters(in: .whitespaces))
  }

  /// The label (`File.swift:31`) of the step at a scenario path such as
  /// `main[5].task.do[2]`, which is where in the app's Swift an error in the draft lies.
  public func label(ofStepAt path: String) -> String? {
    var node: JSONValue? = scenario
    var label: String?
    for segment in path.split(separator: ".") {
      guard let open = segment.firstIndex(of: "["),
        let index = Int(segment[segment.index(after: open)...].dropLast())
      else { continue }  // a verb's name: the step is the node already
      let key = String(segment[..<open])
      guard case .object(let members)? = node?.kind,
        case .array(let items)? = members.first(where: { $0.key == key })?.value.kind,
        items.indices.contains(index)
      else { return label }
      node = items[index]
      if case .object(let step) = items[index].kind,
        case .string(let text)? = step.first(where: { $0.key == "label" })?.value.kind
      {
        label = text
      }
    }
    return label
  }
}
