"""`digno lsp` end to end through the Language Server Protocol, with pytest-lsp's client (PyPI)
driving the server as an editor does: diagnostics from unsaved text, across files, for files
changed outside the editor; completion, definition, references, hover, rename, quick fixes;
and the server's exit with its client.

    python3 -m pytest Tests/Editors/lsp -v

Environment: DIGNO (the binary; default .build/debug/digno). Needs pytest-lsp (PyPI); .ci/run
installs it.
"""

import asyncio
import os
import pathlib
import subprocess

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import DIGNO

def uri(path):
    return pathlib.Path(path).as_uri()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[DIGNO, "lsp"]), scope="module")
async def client(lsp_client: LanguageClient, workspace):
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            workspace_edit=types.WorkspaceEditClientCapabilities(
                document_changes=True, resource_operations=[types.ResourceOperationKind.Rename]),
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)),
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(),
            completion=types.CompletionClientCapabilities(),
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=[types.CodeActionKind.QuickFix]))),
            rename=types.RenameClientCapabilities()))
    registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params):
        registrations.extend(params.registrations)

    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities, root_uri=uri(workspace),
        workspace_folders=[types.WorkspaceFolder(uri=uri(workspace), name="brand")]))
    assert result.server_info.name == "digno"
    for _ in range(100):
        if registrations:
            break
        await asyncio.sleep(0.05)
    # The server asks to hear of every file changed on disk.
    assert [r.method for r in registrations] == ["workspace/didChangeWatchedFiles"]
    assert "**/*" in [w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in registrations[0].register_options["watchers"]]
    yield
    await lsp_client.shutdown_session()


def path_in(workspace, relative):
    return os.path.join(workspace, "content", relative)


def read(workspace, relative):
    with open(path_in(workspace, relative), encoding="utf-8") as file:
        return file.read()


async def settle(client, seconds=0.5):
    """Waits until no diagnostics came for `seconds`: the server has checked the last change."""
    while True:
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), seconds)
        except asyncio.TimeoutError:
            return


def codes(client, workspace, relative):
    return sorted(d.code for d in client.diagnostics.get(uri(path_in(workspace, relative)), []))


def opened(client, workspace, relative, text=None, version=1):
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri(path_in(workspace, relative)), language_id="xml", version=version,
        text=read(workspace, relative) if text is None else text)))


def changed(client, workspace, relative, text, version):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(path_in(workspace, relative)), version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def position_of(text, needle, offset=0):
    before = text[:text.index(needle) + offset]
    line = before.count("\n")
    character = len(before.split("\n")[-1].encode("utf-16-le")) // 2
    return types.Position(line=line, character=character)


async def test_an_unsaved_edit_that_breaks_another_file_and_its_fix(client: LanguageClient, workspace, tmp_path):
    await settle(client)
    # Nothing to say of the shipped content but the promotions' days, which depend on today.
    assert all(d.code == "promotion-ended" for ds in client.diagnostics.values() for d in ds)
    recipe = "recipes/pressokahvi.xml"
    original = read(workspace, recipe)
    opened(client, workspace, recipe)
    # The one recipe of coffee-beans made to use another product, not saved: the product,
    # in another file, is now used by no recipe.
    edited = original.replace('product="coffee-beans"', 'product="ground-coffee"', 1)
    changed(client, workspace, recipe, edited, 2)
    await settle(client)
    assert codes(client, workspace, recipe) == []
    assert codes(client, workspace, "products/coffee-beans.xml") == ["product-unused"]
    diagnostic = client.diagnostics[uri(path_in(workspace, "products/coffee-beans.xml"))][0]
    # digno validate of the same files says the same words at the same place.
    copy = tmp_path / "content"
    subprocess.run(["cp", "-r", os.path.join(workspace, "content"), str(copy)], check=True)
    (copy / recipe).write_text(edited, encoding="utf-8")
    validate = subprocess.run([DIGNO, "validate", str(copy)], capture_output=True, text=True).stdout
    line = [l for l in validate.splitlines() if "[product-unused]" in l][0]
    severity = {types.DiagnosticSeverity.Error: "error", types.DiagnosticSeverity.Warning: "warning"}[diagnostic.severity]
    assert line == f"products/coffee-beans.xml:{diagnostic.range.start.line + 1}:{diagnostic.range.start.character + 1}: " \
        f"{severity}: {diagnostic.message} [product-unused]"
    # Fixed: every file is clear again.
    changed(client, workspace, recipe, original, 3)
    await settle(client)
    assert codes(client, workspace, "products/coffee-beans.xml") == []


async def test_a_file_deleted_outside_the_editor_is_picked_up(client: LanguageClient, workspace):
    target = path_in(workspace, "products/ground-coffee.xml")
    kept = read(workspace, "products/ground-coffee.xml")
    os.remove(target)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri(target), type=types.FileChangeType.Deleted)]))
    await settle(client)
    assert "unknown-product" in codes(client, workspace, "recipes/cafe-au-lait.xml")
    with open(target, "w", encoding="utf-8") as file:
        file.write(kept)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri(target), type=types.FileChangeType.Created)]))
    await settle(client)
    assert codes(client, workspace, "recipes/cafe-au-lait.xml") == []


async def test_completion_definition_references_and_hover(client: LanguageClient, workspace):
    recipe = "recipes/cafe-latte.xml"
    text = read(workspace, recipe)
    opened(client, workspace, recipe)
    await settle(client)
    inside = position_of(text, '<ingredient product="espresso"', len('<ingredient product="'))
    document = types.TextDocumentIdentifier(uri=uri(path_in(workspace, recipe)))

    completion = await client.text_document_completion_async(types.CompletionParams(text_document=document, position=inside))
    labels = {item.label: item.detail for item in completion.items}
    assert labels == {"coffee-beans": "Coffee Beans", "espresso": "Espresso", "ground-coffee": "Ground Coffee"}

    definition = await client.text_document_definition_async(types.DefinitionParams(text_document=document, position=inside))
    assert [location.uri for location in definition] == [uri(path_in(workspace, "products/espresso.xml"))]

    references = await client.text_document_references_async(types.ReferenceParams(
        text_document=document, position=inside, context=types.ReferenceContext(include_declaration=True)))
    files = sorted({os.path.relpath(pathlib.Path(types_uri_path(location.uri)), path_in(workspace, "")) for location in references})
    assert "products/espresso.xml" in files and "recipes/cappuccino.xml" in files and "retailers/deling-group.xml" in files
    assert len(references) == 1 + 12

    hover = await client.text_document_hover_async(types.HoverParams(text_document=document, position=inside))
    assert hover.contents.value.startswith("**Espresso** (product `espresso`)")

    picture = position_of(text, 'src="images/recipes/cafe-latte-1.png"', len('src="'))
    hover = await client.text_document_hover_async(types.HoverParams(text_document=document, position=picture))
    assert "px, PNG" in hover.contents.value and "Renditions as `<image>`: PNG" in hover.contents.value
    sources = await client.text_document_completion_async(types.CompletionParams(text_document=document, position=picture))
    assert any(item.label == "images/recipes/cafe-latte-1.png" and "px" in item.detail for item in sources.items)


async def test_element_and_attribute_names_are_completed_and_explained(client: LanguageClient, workspace):
    """Where the schema allows them: after `<` inside <product> its elements, in <product>'s
    start tag its attributes not yet written; a hover on an element's or attribute's name says what it
    is, from the schema's own documentation."""
    product = "products/espresso.xml"
    text = read(workspace, product)
    typing = text.replace("<summary>", "<su\n  <summary>", 1)
    opened(client, workspace, product, typing, 1)
    await settle(client)
    document = types.TextDocumentIdentifier(uri=uri(path_in(workspace, product)))
    at = position_of(typing, "<su\n", len("<su"))
    completion = await client.text_document_completion_async(types.CompletionParams(text_document=document, position=at))
    labels = {item.label: item.detail for item in completion.items}
    assert "summary" in labels and labels["summary"].endswith(" — Required. At most 100 characters. Written in each declared language (`xml:lang`)."), labels
    assert all(label.startswith("su") for label in labels), labels
    assert completion.items[0].text_edit.range.start.character == at.character - 2
    changed(client, workspace, product, text, 2)
    await settle(client)

    attribute_typing = text.replace('<product id="espresso"', '<product  id="espresso"', 1)
    changed(client, workspace, product, attribute_typing, 3)
    at = position_of(attribute_typing, '<product  id=', len("<product "))
    completion = await client.text_document_completion_async(types.CompletionParams(text_document=document, position=at))
    labels = {item.label: item.detail for item in completion.items}
    assert "id" not in labels, "id is written already"
    assert "position" in labels and labels["position"], labels
    changed(client, workspace, product, text, 4)
    await settle(client)

    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=document, position=position_of(text, "<summary>", len("<su"))))
    assert hover is not None and hover.contents.value.startswith("`<summary>` in `<product>`: "), hover
    # The description of the fields adds what the schema's words leave out.
    assert hover.contents.value.endswith("\n\nRequired. At most 100 characters. Written in each declared language (`xml:lang`)."), hover
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=document, position=position_of(text, "</summary>", len("</su"))))
    assert hover is not None and hover.contents.value.startswith("`<summary>` in `<product>`: "), hover
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=document, position=position_of(text, ' alt="', len(" al"))))
    assert hover is not None and hover.contents.value.startswith("`alt` of `<image>`: "), hover


def types_uri_path(value):
    from urllib.parse import unquote, urlparse
    return unquote(urlparse(value).path)


async def code_actions(client, workspace, relative, diagnostics):
    """The quick fixes the server offers for `diagnostics` of a file, at the first one's range."""
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(path_in(workspace, relative))), range=diagnostics[0].range,
        context=types.CodeActionContext(diagnostics=diagnostics)))


async def test_a_quick_fix_for_did_you_mean(client: LanguageClient, workspace):
    recipe = "recipes/cappuccino.xml"
    text = read(workspace, recipe)
    wrong = text.replace('product="espresso"', 'product="espreso"', 1)
    opened(client, workspace, recipe, wrong, 1)
    await settle(client)
    diagnostics = client.diagnostics[uri(path_in(workspace, recipe))]
    assert [d.code for d in diagnostics] == ["unknown-product"]
    actions = await code_actions(client, workspace, recipe, diagnostics)
    assert [action.title for action in actions] == ["Write 'espresso'"]
    edit = actions[0].edit.document_changes[0].edits[0]
    assert edit.new_text == "espresso" and edit.range.start == position_of(wrong, 'product="espreso"', len('product="'))
    # A reference written as the product's name: the id it meant.
    named = text.replace('product="espresso"', 'product="Espresso"', 1)
    changed(client, workspace, recipe, named, 2)
    await settle(client)
    diagnostics = client.diagnostics[uri(path_in(workspace, recipe))]
    assert [d.code for d in diagnostics] == ["schema-invalid"]
    actions = await code_actions(client, workspace, recipe, diagnostics)
    assert [action.title for action in actions] == ["Write 'espresso'"]
    changed(client, workspace, recipe, text, 3)
    await settle(client)
    assert codes(client, workspace, recipe) == []


def applied(text, edit):
    """`text` with one LSP edit applied (positions in UTF-16 units, as the server gives them)."""
    lines = text.split("\n")
    line = lines[edit.range.start.line].encode("utf-16-le")
    start, end = edit.range.start.character * 2, edit.range.end.character * 2
    lines[edit.range.start.line] = (line[:start] + edit.new_text.encode("utf-16-le") + line[end:]).decode("utf-16-le")
    return "\n".join(lines)


async def test_quick_fixes_where_the_fix_is_certain(client: LanguageClient, workspace):
    """A misspelled tag (start or end), a day written the Finnish way and a bare '&': each
    diagnostic offers the one fix, and the fixed file has no diagnostic left."""
    product = "products/espresso.xml"
    promotion_file = "home.xml"
    text = read(workspace, product)
    version = 1
    for wrong, title in [(text.replace("<summary>", "<sumary>", 1), "Write <summary>"),
                         (text.replace("</summary>", "</sumary>", 1), "Write </summary>"),
                         (text.replace("<summary>", "<summary>Maito & ", 1), "Write '&' as &amp;")]:
        if version == 1:
            opened(client, workspace, product, wrong, version)
        else:
            changed(client, workspace, product, wrong, version)
        version += 1
        await settle(client)
        diagnostics = client.diagnostics[uri(path_in(workspace, product))]
        assert [d.code for d in diagnostics] == ["xml-malformed"], diagnostics
        actions = await code_actions(client, workspace, product, diagnostics)
        assert [action.title for action in actions] == [title]
        fixed = applied(wrong, actions[0].edit.document_changes[0].edits[0])
        changed(client, workspace, product, fixed, version)
        version += 1
        await settle(client)
        assert codes(client, workspace, product) == [], fixed
    # An id that differs from the file's name, and one written as the product's name: the
    # file's name written in its place.
    for wrong, code in [(text.replace('id="espresso"', 'id="espressoo"', 1), "id-mismatch"),
                        (text.replace('id="espresso"', 'id="Espresso"', 1), "schema-invalid")]:
        changed(client, workspace, product, wrong, version)
        version += 1
        await settle(client)
        diagnostics = client.diagnostics[uri(path_in(workspace, product))]
        assert [d.code for d in diagnostics] == [code], diagnostics
        actions = await code_actions(client, workspace, product, diagnostics)
        assert [action.title for action in actions] in (['Write id="espresso"'], ["Write 'espresso'"]), actions
        assert applied(wrong, actions[0].edit.document_changes[0].edits[0]) == text
    home = read(workspace, promotion_file)
    day = position_of(home, 'first-day="', 0)
    assert day is not None
    import re
    wrong = re.sub(r'first-day="(\d{4})-(\d{2})-(\d{2})"', lambda m: f'first-day="{int(m.group(3))}.{int(m.group(2))}.{m.group(1)}"', home, count=1)
    opened(client, workspace, promotion_file, wrong, 1)
    await settle(client)
    diagnostics = [d for d in client.diagnostics[uri(path_in(workspace, promotion_file))] if d.code == "schema-invalid"]
    assert len(diagnostics) == 1 and "a day written the Finnish way" in diagnostics[0].message, diagnostics
    actions = await code_actions(client, workspace, promotion_file, diagnostics)
    assert len(actions) == 1 and actions[0].title.startswith("Write 20")
    assert applied(wrong, actions[0].edit.document_changes[0].edits[0]) == home


async def test_rename_a_product_as_one_workspace_edit(client: LanguageClient, workspace):
    product = "products/ground-coffee.xml"
    text = read(workspace, product)
    opened(client, workspace, product)
    await settle(client)
    position = position_of(text, 'id="ground-coffee"', len('id="'))
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri(path_in(workspace, product))), position=position, new_name="suodatinkahvi"))
    changes = edit.document_changes
    assert isinstance(changes[-1], types.RenameFile)
    assert changes[-1].new_uri == uri(path_in(workspace, "products/suodatinkahvi.xml"))
    # Applied as an editor applies it, then checked by digno validate: nothing new.
    before = subprocess.run([DIGNO, "validate", "content"], cwd=workspace, capture_output=True, text=True).stdout
    for change in changes[:-1]:
        path = types_uri_path(change.text_document.uri)
        with open(path, encoding="utf-8") as file:
            lines = file.read().split("\n")
        for text_edit in sorted(change.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            line = lines[text_edit.range.start.line]
            utf16 = line.encode("utf-16-le")
            start, end = text_edit.range.start.character * 2, text_edit.range.end.character * 2
            lines[text_edit.range.start.line] = (utf16[:start] + text_edit.new_text.encode("utf-16-le") + utf16[end:]).decode("utf-16-le")
        with open(path, "w", encoding="utf-8") as file:
            file.write("\n".join(lines))
    os.rename(types_uri_path(changes[-1].old_uri), types_uri_path(changes[-1].new_uri))
    after = subprocess.run([DIGNO, "validate", "content"], cwd=workspace, capture_output=True, text=True).stdout
    assert after == before
    # An id that is not valid, or taken, is refused.
    with pytest.raises(Exception, match="not a valid id"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path_in(workspace, "products/espresso.xml"))),
            position=position_of(read(workspace, "products/espresso.xml"), 'id="espresso"', len('id="')), new_name="Espresso Tumma"))


def test_the_server_exits_with_its_client(workspace):
    """Its standard input closed without shutdown and exit: it ends, status 1."""
    server = subprocess.Popen([DIGNO, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=workspace)
    body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}'
    server.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    server.stdin.flush()
    server.stdin.close()
    assert server.wait(timeout=60) == 1
