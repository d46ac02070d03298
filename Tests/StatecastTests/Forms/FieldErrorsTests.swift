import Foundation
import Statecast
import Testing

@Suite struct FieldErrorsTests {
  @Test func theFirstBrokenRuleSpeaks() {
    let name = Validator<String>.required("Enter a name").and(.maxLength(3))
    #expect(name.message(for: "") == "Enter a name")
    #expect(name.message(for: "   ") == "Enter a name")
    #expect(name.message(for: "Adam") == "At most 3 characters")
    #expect(name.message(for: "Ada") == nil)
  }

  @Test func emailAddressesNeedOneAtAndADottedDomain() {
    let email = Validator<String>.email()
    for good in ["ada@example.org", "a.b+c@mail.example.co"] { #expect(email.message(for: good) == nil) }
    for bad in [
      "", "ada", "ada@", "@example.org", "ada@example", "ada@@example.org", "a da@example.org",
      "ada@example.",
    ] {
      #expect(email.message(for: bad) != nil, "\(bad) should be refused")
    }
  }

  @Test func errorsCollectPerFieldAndMerge() {
    var errors = FieldErrors()
    errors.check("name", "", .required("Enter a name"))
    errors.check("email", "ada@example.org", .required(), .email())
    #expect(errors["name"] == ["Enter a name"])
    #expect(errors["email"].isEmpty)
    #expect(!errors.isEmpty)
    let merged = errors.merging(FieldErrors(["name": "Taken", "email": "Unknown domain"]))
    #expect(merged["name"] == ["Enter a name", "Taken"])
    #expect(merged["email"] == ["Unknown domain"])
    var cleared = merged
    cleared.clear("name")
    #expect(cleared["name"].isEmpty)
  }

  @Test func theViewShowsTheFirstMessageOfEachField() throws {
    var errors = FieldErrors(["password": "At least 12 characters"])
    errors.add("Enter a name", to: "name")
    errors.add("At most 40 characters", to: "name")
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(errors), as: UTF8.self)
    #expect(json == #"{"name":"Enter a name","password":"At least 12 characters"}"#)
  }

  @Test func uploadLimitsSayWhichLimitAFileBreaks() {
    let limits = UploadLimits(
      maxFileSize: 10 << 20, maxFiles: 2, types: ["image/*", ".pdf"], sessionQuota: 15 << 20)
    #expect(
      limits.refusal(name: "big.png", type: "image/png", size: 11 << 20, files: 0, bytes: 0)
        == "big.png is 11 MB; files may be at most 10 MB")
    #expect(
      limits.refusal(name: "notes.txt", type: "text/plain", size: 10, files: 0, bytes: 0)
        == "notes.txt is not an accepted type (image/*, .pdf)")
    #expect(limits.refusal(name: "a.PDF", type: "", size: 10, files: 0, bytes: 0) == nil)
    #expect(
      limits.refusal(name: "c.png", type: "image/png", size: 10, files: 2, bytes: 0)
        == "at most 2 files may be uploaded")
    #expect(
      limits.refusal(name: "d.png", type: "image/png", size: 6 << 20, files: 1, bytes: 10 << 20)
        == "d.png would pass this page's upload quota of 15 MB")
    #expect(UploadLimits.describe(1536 << 10) == "1.5 MB")
  }
}
