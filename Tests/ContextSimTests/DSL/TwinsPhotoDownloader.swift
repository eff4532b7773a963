import ContextSim

// Twins of the photo downloader as first written, and of its store error.

/// The albums and photos every photo-downloader file declares.
let photoAlbumModel: Literal = [
  "Album": [
    "attributes": ["title": "string"],
    "relationships": ["photos": ["to": "Photo", "many": true, "inverse": "album"]],
  ],
  "Photo": [
    "attributes": [
      "remoteURL": "string", "imageData": "binary",
      "isSeen": ["type": "boolean", "default": false],
    ], "relationships": ["album": ["to": "Album", "inverse": "photos"]],
  ],
]

extension Twin {
  static let photoDownloaderStoreError = Twin("photo-downloader-store-error") {
    try Scenario(
      "markAllSeen with try! when the store fails",
      about:
        "The reviewed markAllSeen fetches with try!. Any fetch error, a failed migration or a full disk, then crashes the app. Here the store fails on that fetch, and the app dies with Swift's try! fatal error.",
      model: photoAlbumModel,
      store: [
        "Photo": [
          ["id": "photo-1", "remoteURL": "https://example.com/1.jpg"],
          ["id": "photo-2", "remoteURL": "https://example.com/2.jpg"],
        ]
      ],
      expect: [Expected(.uncaughtError, at: "fetch-all-photos")],
      inject: [["at": "fetch-all-photos", "error": 134060]],
      file: "scenarios/photo-downloader-store-error.json"
    ) {
      StartTask(.main) {
        Fetch("Photo", in: "viewContext", as: "photos", try: .force).label("fetch-all-photos")
        ForEach("$photos", as: "photo") {
          SetValue("photo.isSeen", to: true)
        }
        Save("viewContext")
      }
    }
  }

  static let photoDownloader = Twin("photo-downloader") {
    try Scenario(
      "The photo downloader, as reviewed",
      about:
        "The reviewed PhotoDownloader: one global-queue block per URL, each making its own private context, using it without perform, relating the new photo to the album the screen fetched in viewContext, saving with try?, and handing the photo object to the main queue. markAllSeen fetches and saves viewContext from a global queue. With ConcurrencyDebug on, the first download traps at once; without it, every download dies on the cross-context relationship.",
      model: photoAlbumModel,
      store: ["Album": [["id": "album-1", "title": "Holiday"]]],
      vars: ["onSaved": nil],
      expect: [
        Expected(.wrongQueueContext, at: "insert-photo"),
        Expected(.wrongQueueObject, at: "relate-album"),
        Expected(.crossContextRelationship, at: "relate-album"),
        Expected(.wrongQueueContext, at: "save-photo"),
        Expected(.wrongQueueObject, at: "use-photo-on-main", in: .some),
        Expected(.dataRace, at: "set-onSaved"),
        Expected(.wrongQueueContext, at: "fetch-all-photos"),
        Expected(.wrongQueueObject, at: "mark-seen", in: .some),
        Expected(.wrongQueueContext, at: "save-seen"),
      ],
      file: "scenarios/photo-downloader.json"
    ) {
      Fetch("Album", in: "viewContext", first: true, as: "album").note(
        "The album screen's album, in viewContext.")
      Async("global") {
        Write("onSaved", value: "showPhoto")
          .swift("self.onSaved = { photo in self.showPhoto(photo) }").label("set-onSaved").note(
            "The caller sets onSaved from its own thread while downloads are under way.")
      }.label("caller")
      ForEach(
        [
          "https://example.com/1.jpg", "https://example.com/2.jpg", "https://example.com/3.jpg",
          "https://example.com/4.jpg",
        ], as: "url"
      ) {
        Async("global") {
          Let("data", "$url").swift("guard let data = try? Data(contentsOf: url) else { return }")
            .note("Data(contentsOf: url): one blocked thread per photo.")
          NewContext("downloadContext", ["queue": "private"]).note(
            "A new private context per download, with the coordinator as its parent.")
          Insert(
            "Photo", into: "downloadContext", as: "photo",
            values: ["remoteURL": "$url", "imageData": "$data"]
          ).label("insert-photo").note("A private context touched without perform.")
          SetValue("photo.album", to: "$album").label("relate-album").note(
            "photo lives in this context, album in viewContext.")
          Save("downloadContext", try: .optional).label("save-photo").note(
            "try? throws away any failure.")
          Async("main") {
            Read("onSaved", as: "handler").label("read-onSaved").note(
              "self.onSaved?(photo), on main, while another thread may be setting it.")
            Get("photo.remoteURL").swift(
              "handler?(photo) // showPhoto(photo) reads photo.remoteURL"
            )
            .label("use-photo-on-main").when("handler", notEquals: nil).note(
              "The handler gets a managed object that belongs to the download's context.")
          }
        }
      }.label("download")
      Async("global") {
        Fetch("Photo", in: "viewContext", as: "photos", try: .force).label("fetch-all-photos").note(
          "viewContext, a main-queue context, used from a global queue.")
        ForEach("$photos", as: "photo") {
          SetValue("photo.isSeen", to: true).label("mark-seen")
        }
        Save("viewContext", try: .optional).label("save-seen")
      }.label("mark-all-seen")
    }
  }
}
