/// Decoding of the app's contexts, its extra dispatch queues and its shared vars.
extension ScenarioDecoder {
  mutating func validateContexts(_ raw: Field<[RawContext]>) {
    var parents: [(name: String, parent: String, at: SourceLocation)] = []
    for declared in read(raw)?.value ?? [] {
      let name = declared.name.value
      let path = "contexts.\(name)"
      guard let options = read(declared.options)?.value else { continue }
      errors += declared.problems
      if ["main", "global"].contains(name) {
        fail(
          "a context cannot be called \"\(name)\"",
          fix:
            "a private context's queue takes its name, and \"\(name)\" is a dispatch queue; rename the context",
          at: declared.name.location, path: path)
      }
      let isViewContext = name == "viewContext"
      if isViewContext, let queue = options.queueUnlessMain {
        fail(
          "viewContext is always a main-queue context", fix: "remove \"queue\" here",
          at: queue, path: path)
      }
      guard
        let context = contextOptions(
          options, name: name, requiresQueue: !isViewContext, path: path)
      else { continue }
      if case .context(let parent) = context.parent, case .present(let written) = options.parent {
        parents.append((name, parent, written.location))
      }
      if isViewContext {
        contexts[0] = context
      } else {
        contexts.append(context)
      }
    }
    checkParents(parents)
  }

  /// The options of a context, declared up front or made by a `newContext` step.
  mutating func contextOptions(
    _ raw: RawContextOptions, name: String, requiresQueue: Bool, path: String
  ) -> ContextDescription? {
    var context = ContextDescription(
      name: name, concurrencyType: name == "viewContext" ? .mainQueue : .privateQueue,
      parent: .store, mergePolicy: .error, automaticallyMergesChangesFromParent: false,
      shouldDeleteInaccessibleFaults: true)
    if !raw.queue.isAbsent {
      guard let type = read(raw.queue)?.value else { return nil }
      context.concurrencyType = type
    } else if requiresQueue {
      fail(
        "the context \"\(name)\" has no \"queue\"",
        fix: "add \"queue\": \"private\" (its own queue) or \"main\"", at: raw.location,
        path: path)
    }
    if let parent = read(raw.parent) {
      if parent.value == name {
        fail(
          "the context \"\(name)\" cannot be its own parent",
          fix: "name another context, or \"store\"", at: parent.location, path: path)
      } else if parent.value != "store" {
        context.parent = .context(parent.value)
      }
    }
    context.mergePolicy = read(raw.mergePolicy)?.value ?? .error
    context.automaticallyMergesChangesFromParent =
      read(raw.automaticallyMergesChangesFromParent)?.value ?? false
    context.shouldDeleteInaccessibleFaults = read(raw.shouldDeleteInaccessibleFaults)?.value ?? true
    context.nameProperty = read(raw.nameProperty)?.value
    context.transactionAuthor = read(raw.transactionAuthor)?.value
    return context
  }

  /// Every declared parent must exist, and following parents must reach the store.
  private mutating func checkParents(
    _ parents: [(name: String, parent: String, at: SourceLocation)]
  ) {
    let names = contexts.map(\.name)
    for (name, parent, location) in parents where !names.contains(parent) {
      let fix =
        nearestName(to: parent, in: names).map { "did you mean \"\($0)\"?" }
        ?? "name a context declared in \"contexts\", or \"store\""
      fail(
        "the parent \"\(parent)\" of \"\(name)\" is not a context", fix: fix, at: location,
        path: "contexts.\(name)")
    }
    var reported: Set<Set<String>> = []
    for (name, _, location) in parents {
      var seen = [name]
      var current = name
      while case .context(let parent)? = contexts.first(where: { $0.name == current })?.parent {
        if seen.contains(parent) {
          guard seen.first == parent, reported.insert(Set(seen)).inserted else { break }
          fail(
            "the parents of \"\(name)\" go round in a cycle: \((seen + [parent]).joined(separator: " → "))",
            fix: "make one of them a child of \"store\"", at: location, path: "contexts.\(name)")
          break
        }
        seen.append(parent)
        current = parent
      }
    }
  }

  mutating func validateQueues(_ raw: Field<[RawQueue]>) {
    for queue in read(raw)?.value ?? [] {
      let name = queue.name.value
      let path = "queues.\(name)"
      if ["main", "global"].contains(name) || contexts.contains(where: { $0.name == name }) {
        fail(
          "the queue name \"\(name)\" is taken",
          fix: "\"main\", \"global\" and each context's own queue already exist; pick another name",
          at: queue.name.location, path: path)
        continue
      }
      guard let attributes = read(queue.attributes)?.value else { continue }
      queues.append(QueueDescription(name: name, attributes: attributes))
    }
  }

  mutating func validateVars(_ raw: Field<[RawVar]>) -> [(name: String, value: Value)] {
    var result: [(name: String, value: Value)] = []
    for variable in read(raw)?.value ?? [] {
      let name = variable.name.value
      guard isIdentifier(name) else {
        fail(
          "\"\(name)\" is not a variable name", fix: "use letters, digits and _",
          at: variable.name.location, path: "vars")
        continue
      }
      guard let value = read(variable.value)?.value else { continue }
      sharedVars.append(name)
      result.append((name, value))
    }
    return result
  }
}
