import Foundation

/// A scenario drafted from an app's own Swift: `ctxsim draft PhotoDownloader.swift`.
///
/// The drafter reads the files with its own parser (``SwiftParser``: no outside package and
/// no dependence on one compiler's output), finds the classes that use Core Data, and writes
/// what each entry point does as scenario steps, every step labelled with its file and line
/// and carrying the Swift it stands for. What it does not model stays in the draft as a
/// `print` step saying "not modelled", so the whole function shows. docs/draft.md says what
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
  public let scenario: JSONValue
  /// One line per entry point and per stand-in, for a summary before a run.
  public let summary: [String]
  /// Lines the draft keeps without modelling them.
  public let notModelled: Int

  /// Drafts a scenario from `sources`.
  public init(_ sources: [Source], options: Options = Options()) {
    let files = sources.map { SwiftParser.parse($0.text, name: $0.name) }
    var drafter = Drafter(files: files, options: options)
    scenario = drafter.draft()
    summary = drafter.summary
    notModelled = drafter.notModelledCount
  }

  /// The scenario as indented JSON, ending in a line break.
  public var json: String { JSONWriter.write(scenario) + "\n" }
}

extension Draft {
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
