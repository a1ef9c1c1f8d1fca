import CheckrunModel
import Testing

/// The folder of a path, as the database and output files are checked in it.
@Suite struct FilePathsTests {
    @Test(arguments: [
        ("x", "."), ("-", "."), ("ab", "."), ("./x", "."), ("../x", ".."), ("/x", "/"), ("//x", "/"), ("/", "/"),
        ("a/b", "a"), ("a//b", "a"), ("a/b/", "a"), ("a/b/c", "a/b"), ("/srv/team db/checkrun.sqlite", "/srv/team db"),
    ])
    func theFolderOfAPath(path: String, folder: String) {
        #expect(FilePaths.folder(of: path) == folder)
    }
}
