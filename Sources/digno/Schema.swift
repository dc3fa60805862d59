import ArgumentParser
import BundleCompiler
import Foundation

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the content's schema, or put it in a content folder for editors' tools.",
        discussion: """
            With --write, writes schema/content.xsd and schema/xml.xsd into the content folder \
            and makes each content file's root element name them \
            (xsi:noNamespaceSchemaLocation), changing nothing else: XML editors (VS Code's XML \
            extension, IntelliJ, Oxygen) then complete, check and explain as you type. Without \
            it, prints content.xsd. Exit status: 0 when done, 2 for usage or I/O errors.
            """)

    @OptionGroup var folder: ContentFolderArguments

    @Flag(help: "Write the schema into the content folder and name it from every content file.")
    var write = false

    func run() throws {
        guard write else {
            guard folder.folder == nil, folder.content == nil else {
                throw ValidationError("a content folder is only for --write; `digno schema` alone prints the schema")
            }
            FileHandle.standardOutput.write(Data(ContentSchema.files[0].bytes))
            return
        }
        let outcome = try SchemaWriter.write(contentFolder: folder.contentFolder)
        for path in outcome.schemaFiles {
            print("wrote \(path)" + (path == ContentSchema.path ? " (version \(ContentSchema.version) of the content's schema)" : ""))
        }
        for path in outcome.named { print("named the schema in \(path)") }
        for (path, reason) in outcome.skipped { print("warning: left \(path) as it was: \(reason)") }
        let done = outcome.schemaFiles.isEmpty && outcome.named.isEmpty
        print(done ? "nothing to do: the schema is in place and every file names it" : "\(outcome.named.count) files changed, \(outcome.unchanged) named the schema already")
    }
}
