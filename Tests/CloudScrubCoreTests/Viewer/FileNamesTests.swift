import CloudScrubCore
import Testing

/// The export and trajectory file names are viewer state: each document that opens
/// puts its own beside it, and what the user types replaces them by command.
@Suite struct FileNamesTests {
  @Test func theSecondDocumentOpenedGetsItsOwnExportName() {
    var state = ViewerState()
    #expect(state.fileNames.exportPath == "cloud.ply")
    state.apply(.documentOpened(path: "/captures/a.csrec"))
    #expect(state.fileNames.exportPath == "/captures/a-export.ply")
    #expect(state.fileNames.posesPath == "/captures/a-poses.txt")
    state.apply(.documentOpened(path: "/scans/b.ply"))
    #expect(state.fileNames.exportPath == "/scans/b-export.ply")
    #expect(state.fileNames.posesPath == "/scans/b-poses.txt")
  }

  @Test func aTypedNameLastsUntilAnotherDocumentOpens() {
    var state = ViewerState()
    state.apply(.documentOpened(path: "/captures/a.csrec"))
    state.apply(.fileNames(.setExportPath("/tmp/desk.las")))
    state.apply(.fileNames(.setPosesPath("/tmp/desk-poses.txt")))
    #expect(state.fileNames.exportPath == "/tmp/desk.las")
    #expect(state.fileNames.posesPath == "/tmp/desk-poses.txt")
    state.apply(.playback(.togglePlay))
    #expect(state.fileNames.exportPath == "/tmp/desk.las")
    state.apply(.documentOpened(path: "/captures/b.csrec"))
    #expect(state.fileNames.exportPath == "/captures/b-export.ply")
    #expect(state.fileNames.posesPath == "/captures/b-poses.txt")
  }
}
