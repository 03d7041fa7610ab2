import CloudScrubCore

/// Where one property's value sits in each record of an element. Columns point into a
/// mapped file that outlives every task using them, so tasks may share them.
protocol PLYColumn: Sendable {
  func address(_ record: Int) -> UnsafeRawPointer
}

/// Gives the column of each property of an element's records.
protocol PLYColumnSource {
  associatedtype Column: PLYColumn
  func column(_ property: Int) -> Column
  /// The byte offset of `property` inside every record, when records have a fixed size.
  func fixedOffset(of property: Int) -> Int?
}

/// Records of a fixed size, one after another.
struct PLYFixedRecords: PLYColumnSource {
  struct Column: PLYColumn, @unchecked Sendable {
    let start: UnsafeRawPointer
    let stride: Int
    @inline(__always) func address(_ record: Int) -> UnsafeRawPointer { start + record * stride }
  }

  let base: UnsafeRawPointer
  let stride: Int
  let propertyOffsets: [Int]

  init(base: UnsafeRawPointer, element: PLYElement) {
    self.base = base
    var offsets: [Int] = []
    var size = 0
    for property in element.properties {
      offsets.append(size)
      if case .scalar(let type) = property.kind { size += type.byteCount }
    }
    stride = size
    propertyOffsets = offsets
  }

  func column(_ property: Int) -> Column {
    Column(start: base + propertyOffsets[property], stride: stride)
  }

  func fixedOffset(of property: Int) -> Int? { propertyOffsets[property] }
}

/// Records whose size varies because they hold lists: the start of each is found by
/// walking the element once, and a property's place by walking its record.
struct PLYRecordTable: PLYColumnSource {
  struct Column: PLYColumn, @unchecked Sendable {
    let table: PLYRecordTable
    let property: Int
    func address(_ record: Int) -> UnsafeRawPointer {
      table.address(record: record, property: property)
    }
  }

  let base: UnsafeRawPointer
  let element: PLYElement
  let swapped: Bool
  let recordStarts: [Int]

  /// Indexes `element.count` records from `start`; the caller has already walked them
  /// with bounds checks, so every record lies inside the file.
  init(base: UnsafeRawPointer, start: Int, element: PLYElement, swapped: Bool) {
    self.base = base
    self.element = element
    self.swapped = swapped
    var starts: [Int] = []
    starts.reserveCapacity(element.count)
    var cursor = start
    for _ in 0..<element.count {
      starts.append(cursor)
      for property in element.properties {
        cursor += Self.size(of: property, at: base + cursor, swapped: swapped)
      }
    }
    recordStarts = starts
  }

  func column(_ property: Int) -> Column { Column(table: self, property: property) }
  func fixedOffset(of property: Int) -> Int? { nil }

  func address(record: Int, property: Int) -> UnsafeRawPointer {
    var pointer = base + recordStarts[record]
    for index in 0..<property {
      pointer += Self.size(of: element.properties[index], at: pointer, swapped: swapped)
    }
    return pointer
  }

  private static func size(
    of property: PLYProperty, at pointer: UnsafeRawPointer, swapped: Bool
  ) -> Int {
    switch property.kind {
    case .scalar(let type):
      return type.byteCount
    case .list(let countType, let itemType):
      let count = Int(countType.loadDouble(from: pointer, swapped: swapped))
      return countType.byteCount + count * itemType.byteCount
    }
  }
}
