import CloudScrubCore

extension ExportFormats {
  /// The writer an export job names: its `formatName`, else its output's extension.
  ///
  /// - Throws: `ExportFormatError` for a name or extension no writer has, or
  ///   `.noTextForm` when the job asks for text from a binary-only format.
  public static func writer(for job: ExportJob) throws -> any CloudFormatWriter {
    let writer = try writer(for: job.outputPath, format: job.formatName)
    if job.writeOptions.ascii && !writer.hasTextForm {
      throw ExportFormatError.noTextForm(format: writer.name.uppercased())
    }
    return writer
  }
}
