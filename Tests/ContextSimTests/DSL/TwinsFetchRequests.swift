import ContextSim

// Twins of the files whose fetch requests use operators, sort descriptors and a limit.

extension Twin {
  /// The cache's model and rows, the same in the buggy file and the fixed one.
  private static let cacheModel: Literal = [
    "CacheItem": [
      "attributes": [
        "key": "string", "variantGroupKey": "string", "width": "integer",
        "isDownloaded": ["type": "boolean", "default": false],
      ]
    ]
  ]
  private static let cacheRows: Literal = [
    "CacheItem": [
      ["id": "cat", "key": "Cat.jpg", "variantGroupKey": "Cat.jpg", "isDownloaded": true],
      [
        "id": "cat-640", "key": "Cat.jpg/640", "variantGroupKey": "Cat.jpg", "width": 640,
        "isDownloaded": true,
      ],
      [
        "id": "cat-320", "key": "Cat.jpg/320", "variantGroupKey": "Cat.jpg", "width": 320,
        "isDownloaded": true,
      ],
      ["id": "cat-1280", "key": "Cat.jpg/1280", "variantGroupKey": "Cat.jpg", "width": 1280],
      [
        "id": "dog-160", "key": "Dog.jpg/160", "variantGroupKey": "Dog.jpg", "width": 160,
        "isDownloaded": true,
      ],
    ]
  ]

  /// The smallest downloaded variant of Cat.jpg that has a width.
  private static func fallbackFetch(note: String) -> ModifiedStep {
    Fetch(
      "CacheItem", in: "cache",
      where: ["variantGroupKey": "Cat.jpg", "isDownloaded": true, "width": ["!=": nil]],
      sortBy: [["key": "width", "ascending": true]], limit: 1, first: true, as: "fallback"
    ).label("fallback-fetch").note(note)
  }

  static let cacheFallback = Twin("cache-fallback") {
    try Scenario(
      "A cache lookup that runs off its context's queue",
      about:
        "After wikimedia/wikipedia-ios#3523. When an image cannot be loaded, the app's URL cache falls back to a variant of it already on disk: it fetches the downloaded variants of the image from the cache's private context and serves the smallest. That fallback ran on URLSession's delegate queue without the context's perform, and crashed now and then inside the fetch. Here the app's sort of the variants and its .first are the request's sort descriptor and fetch limit.",
      model: cacheModel, store: cacheRows, contexts: ["cache": ["queue": "private"]],
      queues: ["urlSession": "serial"],
      expect: [
        Expected(.wrongQueueContext, at: "fallback-fetch"),
        Expected(.wrongQueueObject, at: "read-key"),
      ],
      file: "scenarios/cache-fallback.json"
    ) {
      Async("urlSession") {
        fallbackFetch(
          note:
            "The smallest downloaded variant, fetched in the cache's private context from URLSession's queue: no perform."
        )
        Get("fallback.key", as: "key").label("read-key").note(
          "The result belongs to the cache context too.")
        Print("serving $key instead")
      }.note("URLSession's delegate queue hears that Cat.jpg at 1280 pixels failed to load.")
    }
  }

  static let cacheFallbackFixed = Twin("cache-fallback-fixed") {
    try Scenario(
      "A cache lookup inside its context's performAndWait",
      about:
        "The fix of wikimedia/wikipedia-ios#3523, whose author could not reproduce the crash and made sure the lookup runs on the cache context's queue: inside performAndWait, the fetch and every read of its result happen on the context's own queue, and URLSession's queue waits for the answer it has to return.",
      model: cacheModel, store: cacheRows, contexts: ["cache": ["queue": "private"]],
      queues: ["urlSession": "serial"], expect: [],
      file: "scenarios/cache-fallback-fixed.json"
    ) {
      Async("urlSession") {
        PerformAndWait("cache") {
          fallbackFetch(
            note: "The smallest downloaded variant with a width, on the cache's own queue.")
          Get("fallback.key", as: "key").note(
            "The key is a String, safe to take out of the block.")
        }
        Expect(["value": "key", "equals": "Cat.jpg/320"]).label("smallest-variant")
        Print("serving $key instead")
      }.note("URLSession's delegate queue hears that Cat.jpg at 1280 pixels failed to load.")
    }
  }
}
