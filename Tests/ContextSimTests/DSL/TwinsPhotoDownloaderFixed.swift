import ContextSim

// The twin of the fixed photo downloader: a task group, and one writer context.

extension Twin {
  static let photoDownloaderFixed = Twin("photo-downloader-fixed") {
    try Scenario(
      "The photo downloader, fixed",
      about:
        "The fixed design: a main-actor orchestrator, one background writer context, downloads in a task group with no Core Data in them, every save inside await writer.perform looking the album up by object ID, find-or-create by URL so a repeated URL gives one row, automaticallyMergesChangesFromParent on viewContext, only object IDs handed to onSaved, and errors thrown rather than swallowed. One of the four URLs fails to download: it is reported, and the rest save.",
      model: photoAlbumModel,
      store: ["Album": [["id": "album-1", "title": "Holiday"]]],
      contexts: ["viewContext": ["automaticallyMergesChangesFromParent": true]],
      vars: ["onSaved": nil, "failed": nil],
      expect: [],
      file: "scenarios/photo-downloader-fixed.json"
    ) {
      StartTask(.main) {
        NewBackgroundContext("writer").note(
          "The one writer context: saves happen one at a time, on its queue.")
        Write("onSaved", value: "showPhoto")
          .swift("onSaved = { id in self.showPhoto(id) }").label("set-onSaved").note(
            "Set on the main actor, read on the main actor.")
        Fetch("Album", in: "viewContext", first: true, as: "album")
        Get("album.photos").note("The screen shows the album's photos: none yet.")
        GetObjectID("album", as: "albumID").note(
          "Read on main, where the album lives; only the ID crosses.")
        WithTaskGroup(
          over: [
            "https://example.com/1.jpg", "https://example.com/2.jpg", "https://example.com/1.jpg",
            "https://example.com/broken.jpg",
          ], as: "url"
        ) {
          Let("data", "$url").swift("let data = try? await downloader.imageData(from: url)").note(
            "try? await downloader.imageData(from: url): no Core Data here.")
          Let("data", nil).swift("// the download of broken.jpg fails: data is nil")
            .when("url", equals: "https://example.com/broken.jpg").note(
              "This download fails: the server answers 404.")
        } then: {
          Write("failed", value: "$url").swift("if data == nil { failed.append(url) }").when(
            "data", equals: nil
          ).label("report-failure").note(
            "Skipped, but reported to the caller.")
          Perform("writer", await: true) {
            ExistingObject("$albumID", in: "writer", as: "writerAlbum")
            Fetch("Photo", in: "writer", where: ["remoteURL": "$url"], first: true, as: "photo")
              .note("Find or create: one writer asks, so there is one true answer.")
            Insert("Photo", into: "writer", as: "photo").when("photo", equals: nil)
            SetValue("photo.remoteURL", to: "$url")
            SetValue("photo.imageData", to: "$data")
            SetValue("photo.album", to: "$writerAlbum")
            Save("writer").label("save-photo").note("A plain try: a failure reaches the caller.")
            GetObjectID("photo", as: "photoID")
          }.when("data", notEquals: nil).label("save")
          Read("onSaved", as: "handler").when("data", notEquals: nil)
          ObjectWithID("$photoID", in: "viewContext", as: "shown").when("data", notEquals: nil)
            .note("onSaved?(id): the screen opens the photo in its own context.")
          Expect(["count": "album.photos", "atLeast": 1]).when("data", notEquals: nil).label(
            "screen-shows-photos")
        }.label("downloads")
        Expect(["count": "album.photos", "equals": 2]).label("screen-sees-all")
        Expect([
          "count": "Photo", "in": "viewContext",
          "where": ["remoteURL": "https://example.com/1.jpg"], "equals": 1,
        ]).label("one-row-per-url")
        Expect(["value": "failed", "equals": "https://example.com/broken.jpg"]).label(
          "failure-reported")
        Perform("writer", await: true) {
          Fetch("Photo", in: "writer", as: "photos")
          ForEach("$photos", as: "photo") {
            SetValue("photo.isSeen", to: true)
          }
          Save("writer")
        }.label("mark-all-seen")
        Expect(["count": "Photo", "in": "viewContext", "where": ["isSeen": true], "equals": 2])
          .label("all-seen")
      }.label("screen")
    }
  }
}
