import COpenEXR
import CTurboJPEG
import CloudScrubCore

/// The version of the C libraries this build links, for `info` and bug reports.
public enum FormatsLibraries {
  public static var openEXRVersion: String {
    var major: Int32 = 0
    var minor: Int32 = 0
    var patch: Int32 = 0
    var extra: UnsafePointer<CChar>?
    exr_get_library_version(&major, &minor, &patch, &extra)
    return "\(major).\(minor).\(patch)"
  }
}
