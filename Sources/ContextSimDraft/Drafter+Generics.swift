import ContextSimCore
import ContextSimReports

/// Generic app types whose type arguments the code does not write, and what a class
/// inherits from its generic superclass: `CoreDataDAO(CDEntityTranslator(), …)` of
/// `init(_ translator: CoreDataTranslator<CDModel, Model>)`, where `class
/// CDEntityTranslator: CoreDataTranslator<CDEntity, Entity>`, makes `CDModel` the entity
/// `CDEntity` in the DAO's methods and in the translator's inherited ones.
extension Drafter {
  /// The classes the files declare that `type` inherits from, nearest first, each with the
  /// type arguments its superclass clause writes.
  func superclasses(of type: SwiftType) -> [(type: SwiftType, arguments: [String])] {
    var chain: [(type: SwiftType, arguments: [String])] = []
    var current = type
    while chain.count < 8, let written = current.inherits.first {
      let (name, arguments) = Self.genericParts(written)
      guard let next = types[name], next.keyword == "class", next.name != type.name else { break }
      chain.append((next, arguments.map { entityNamed($0) ?? $0 }))
      current = next
    }
    return chain
  }

  /// A method `type` inherits from a superclass the files declare, and that superclass.
  func inheritedMethod(_ name: String, of type: SwiftType, labels: [String?]?)
    -> (SwiftType, SwiftFunction)?
  {
    for (superclass, _) in superclasses(of: type) {
      let named = functions(of: superclass).filter { $0.name == name }
      let fitting = labels.map { labels in named.filter { Self.accepts($0, labels: labels) } }
      if let f = fitting?.first ?? named.first { return (superclass, f) }
    }
    return nil
  }

  /// A property `type` declares or inherits, and the type that declares it.
  func declaredProperty(_ name: String, of type: SwiftType) -> (SwiftType, SwiftProperty)? {
    for owner in [type] + superclasses(of: type).map(\.type) {
      if let p = owner.properties.first(where: { $0.name == name }) { return (owner, p) }
    }
    return nil
  }

  /// What a generic superclass's parameters are for the instances the draft made: the
  /// arguments a made subclass's superclass clause gives it.
  func inheritedTypeArguments(of superclass: SwiftType) -> [String]? {
    guard !superclass.genericParameters.isEmpty else { return nil }
    for made in madeInstances.sorted() {
      guard let type = types[made] else { continue }
      if let found = superclasses(of: type).first(where: { $0.type.name == superclass.name }),
        found.arguments.count == superclass.genericParameters.count
      {
        return found.arguments
      }
    }
    return nil
  }

  /// The type arguments of a generic type made without writing them, from what its
  /// `init`'s parameters of a generic type are given: an app type's instance made there,
  /// whose type (or a superclass of it) is that parameter's type.
  func inferredTypeArguments(of type: SwiftType, by initializer: SwiftFunction, call: Call)
    -> [String]?
  {
    guard !type.genericParameters.isEmpty else { return nil }
    let given = Self.arguments(of: call, for: initializer)
    var found: [String: String] = [:]
    for (index, parameter) in initializer.parameters.enumerated() {
      let (base, written) = Self.genericParts(parameter.type)
      guard !written.isEmpty, let argument = given[index],
        let made = Call(argument.unwrapped.expression), let madeType = types[made.method]
      else { continue }
      let candidates =
        [(type: madeType, arguments: made.typeArguments)] + superclasses(of: madeType)
      guard let match = candidates.first(where: { $0.type.name == base }),
        match.arguments.count == written.count
      else { continue }
      for (name, actual) in zip(written, match.arguments)
      where type.genericParameters.contains(name) {
        found[name] = entityNamed(actual) ?? actual
      }
    }
    let arguments = type.genericParameters.compactMap { found[$0] }
    return arguments.count == type.genericParameters.count ? arguments : nil
  }

  /// `NSStringFromClass(T.self)`, with whatever string methods follow
  /// (`.components(separatedBy: ".").last!`), or `String(describing: T.self)`: the entity
  /// a type written in the code names.
  func classNameEntity(_ e: SwiftExpression) -> String? {
    classNamed(in: e).flatMap(namedType)
  }

  /// `translator.entryClassName` of an app instance, whose one-line getter names a class
  /// (`NSStringFromClass(CDModel.self)…`): the entity it names, the getter's type
  /// parameters as the instance's class, or its superclass clause, gives them.
  func classNameProperty(_ e: SwiftExpression) -> String? {
    guard case .member(let base?, let key) = e.kind, case .instanceOf(let t)? = resolve(base),
      let type = types[t], let (owner, property) = declaredProperty(key, of: type),
      let body = property.gotten, let written = classNamed(in: body)
    else { return nil }
    let arguments =
      owner.name == type.name
      ? madeTypeArguments[t]
      : superclasses(of: type).first { $0.type.name == owner.name }?.arguments
    if let i = owner.genericParameters.firstIndex(of: written.source), let arguments,
      i < arguments.count
    {
      return arguments[i]
    }
    return namedType(written)
  }

  /// The `T` of `NSStringFromClass(T.self)` or `String(describing: T.self)`, under the
  /// string methods that follow it.
  private func classNamed(in e: SwiftExpression) -> SwiftExpression? {
    var current = e.unwrapped.expression
    for _ in 0..<6 {
      switch current.kind {
      case .forceUnwrap(let inner), .optionalChain(let inner): current = inner
      case .member(let base?, _): current = base
      case .call(let callee, let arguments):
        if case .name(let f) = callee.kind, f == "NSStringFromClass" || f == "String",
          let argument = arguments.first?.value, case .member(let t?, "self") = argument.kind
        {
          return t
        }
        guard case .member(let base?, _) = callee.kind else { return nil }
        current = base
      default: return nil
      }
    }
    return nil
  }
}
