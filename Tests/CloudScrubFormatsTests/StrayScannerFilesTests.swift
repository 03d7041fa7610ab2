import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubFormats

/// Stray Scanner's NumPy and CSV parsing on hand-made bytes.
@Suite struct StrayScannerFilesTests {
  @Test func numPyRoundTripsAndAlignsItsData() throws {
    let image = Gray16Image(width: 3, height: 2, samples: [0, 1, 2, 1000, 65_535, 258])
    let bytes = StrayScannerFiles.npyBytes(image)
    #expect((bytes.count - 12) % 64 == 0)
    #expect(try StrayScannerFiles.npyUInt16(bytes, path: "a.npy") == image)
  }

  @Test func numPyVersion2HeadersAndThirdUnitAxisAreRead() throws {
    let header = Array(
      "{\"descr\": \"<u2\", \"fortran_order\": False, \"shape\": (1, 2, 1)}\n".utf8)
    let length = header.count
    let bytes: [UInt8] =
      [0x93] + Array("NUMPY".utf8) + [2, 0, UInt8(length), 0, 0, 0] + header + [7, 0, 8, 1]
    #expect(
      try StrayScannerFiles.npyUInt16(bytes, path: "b.npy")
        == Gray16Image(width: 2, height: 1, samples: [7, 264]))
  }

  @Test(arguments: [
    ("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1), }", "dtype is <f4"),
    ("{'descr': '<u2', 'fortran_order': True, 'shape': (1, 1), }", "C order"),
    ("{'descr': '<u2', 'fortran_order': False, 'shape': (4,), }", "is not (height, width)"),
    ("{'descr': '<u2', 'fortran_order': False, 'shape': (100000, 100000), }", "shape claims"),
  ])
  func badNumPyHeadersAreNamed(header: String, message: String) throws {
    let text = Array(header.utf8)
    let bytes: [UInt8] =
      [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(text.count), 0] + text + [1, 0]
    let error = #expect(throws: CaptureFolderError.self) {
      try StrayScannerFiles.npyUInt16(bytes, path: "c.npy")
    }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    #expect(error?.path == "c.npy")
  }

  @Test func odometryWithoutAFrameColumnNumbersRowsInOrder() throws {
    let text = "qw,qx,qy,qz,x,y,z,timestamp\n1,0,0,0,1,2,3,0.5\n\n1,0,0,0,4,5,6,0.6\n"
    let rows = try StrayScannerFiles.odometry(Array(text.utf8), path: "o.csv")
    #expect(rows.map(\.frame) == [0, 1])
    #expect(rows.map(\.line) == [2, 4])
    #expect(rows[1].position == SIMD3(4, 5, 6) && rows[1].intrinsics == nil)
  }

  @Test func fieldsAndLinesLoseTheirSpacesTabsAndCarriageReturns() throws {
    // Stray writes ", " between fields; files edited on Windows end lines with CRLF.
    let text =
      " Timestamp, frame,\tx, y, z, qx, qy, qz, qw \r\n \r\n0.5, 7, 1, 2, 3, 0, 0, 0, 1\r\n"
    let rows = try StrayScannerFiles.odometry(Array(text.utf8), path: "o.csv")
    #expect(rows.map(\.frame) == [7] && rows.map(\.line) == [3])
    #expect(rows[0].timestamp == 0.5 && rows[0].position == SIMD3(1, 2, 3))
    #expect(StrayScannerFiles.fields(" a ,\tb\t, , c") == ["a", "b", "", "c"])
    #expect("\u{A0} x y \n".trimmingWhitespace() == "x y" && " \t\r\n".trimmingWhitespace().isEmpty)
  }

  @Test func anOdometryRowWithoutARotationNamesItsLine() throws {
    let text = "timestamp,frame,x,y,z,qx,qy,qz,qw\n0,0,1,2,3,0,0,0,1\n0.1,1,1,2,3,0,0,0,0\n"
    let error = #expect(throws: CaptureFolderError.self) {
      try StrayScannerFiles.odometry(Array(text.utf8), path: "o.csv")
    }
    #expect(
      error?.description
        == "line 3 should be a rotation in qx qy qz qw, not [0.0, 0.0, 0.0, 0.0]: o.csv")
  }
}
