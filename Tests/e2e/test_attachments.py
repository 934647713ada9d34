"""Photos and files: added with the paperclip, shown beside the field (a photo's preview) until
Send, with the words typed sent after them; shown to the conversation's members only (a photo
opens full size, a file is a card with its size and a download); nobody else can fetch them."""

import struct
import zlib

import pytest
from selenium.webdriver.common.keys import Keys


def png(width: int, height: int) -> bytes:
    """A real PNG of a blue-green gradient, so the browser draws it."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (0, (x * 255) // width, 200)) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def fetch_status(person, url: str) -> dict:
    return person.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0]).then(r => done({status: r.status, disposition: r.headers.get('content-disposition')}));
    """, url)


@pytest.mark.flow
def test_photo_and_file_reach_members_only(browsers, tmp_path):
    photo = tmp_path / "Sunset at the lake.png"
    photo.write_bytes(png(240, 160))
    notes = tmp_path / "notes.txt"
    notes.write_text("Bring snacks.\n" * 40)

    alice = browsers("alice")
    bob = browsers("bob")
    carol = browsers("carol")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    chooser = alice.wait(lambda: (alice.find(".composer input[type=file]") or [None])[0], "the file chooser")
    assert alice.visible(".composer-attach"), "the paperclip button"
    chooser.send_keys(str(photo))
    # Nothing is sent yet: the photo waits beside the field, previewed, with the words to go with it.
    preview = alice.wait(lambda: (alice.visible(".composer-files .composer-file-preview") or [None])[0], "the photo's preview")
    assert preview.get_attribute("alt") == "Photo Sunset at the lake.png"
    alice.wait(lambda: alice.js("return arguments[0].complete && arguments[0].naturalWidth", preview) == 240, "the preview drawn")
    assert "composer-input" in alice.focused_element(), "the focus in the field, for a caption"
    alice.assert_accessible("a photo waiting to be sent")
    alice.shot("photo-staged")
    assert not bob.find(".transcript-list .attachment-photo"), "nothing sent before Send"
    field = alice.visible(".composer-input")[0]
    field.send_keys("The lake tonight", Keys.ENTER)
    image = bob.wait(lambda: (bob.visible(".transcript-list .attachment-photo img") or [None])[0], "the photo at Bob's")
    caption = bob.wait_for_text_bubble("The lake tonight")
    assert bob.js("return arguments[0].compareDocumentPosition(arguments[1]) & Node.DOCUMENT_POSITION_FOLLOWING", image, caption), \
        "the words come after the photo"
    assert not alice.visible(".composer-files"), "the field is empty again"
    bob.wait(lambda: bob.js("return arguments[0].complete && arguments[0].naturalWidth", image) == 240, "the photo drawn")
    assert alice.wait(lambda: alice.visible(".transcript-list .attachment-photo img"), "the photo in Alice's transcript")

    # Full size, and back.
    bob.find(".transcript-list .attachment-photo")[0].click()
    viewer = bob.wait(lambda: (bob.visible("dialog.photo-viewer[open]") or [None])[0], "the photo full size")
    assert "Sunset at the lake.png" in viewer.text
    bob.assert_accessible("a photo full size")
    bob.shot("photo-viewer")
    bob.press("Close")
    bob.wait(lambda: not bob.find("dialog.photo-viewer"), "the viewer closed")

    # A file taken back before Send is not sent; the one left is.
    chooser.send_keys(str(notes))
    chooser.send_keys(str(photo))
    alice.wait(lambda: len(alice.visible(".composer-files .composer-file")) == 2, "two waiting")
    assert "notes.txt · 560 bytes" in alice.visible(".composer-files")[0].text
    alice.press("Remove Sunset at the lake.png")
    alice.wait(lambda: len(alice.visible(".composer-files .composer-file")) == 1, "one left")
    # A look at another conversation and back: the file still waits beside the field, only here.
    alice.open_conversation("Parlor demo")
    assert not alice.visible(".composer-files .composer-file"), "not in another conversation"
    alice.open_conversation("Bob")
    alice.wait(lambda: "notes.txt · 560 bytes" in (alice.visible(".composer-files") or [None])[0].text if alice.visible(".composer-files") else False,
               "the file waiting again on coming back")
    chooser = alice.wait(lambda: (alice.find(".composer input[type=file]") or [None])[0], "the file chooser")
    alice.press("Send")
    card = bob.wait(lambda: (bob.visible(".transcript-list .attachment-file") or [None])[0], "the file's card at Bob's")
    assert "notes.txt" in card.text and "560 bytes" in card.text
    link = card.find_element("css selector", "a.attachment-download")
    url = link.get_attribute("href")
    assert link.get_attribute("download") == "notes.txt"
    assert fetch_status(bob, url) == {"status": 200, "disposition": "attachment"}
    bob.assert_accessible("a conversation with a photo and a file")
    bob.shot("photo-and-file")

    # Carol is not in the conversation: neither the photo nor the file is hers to fetch.
    image_url = bob.js("return document.querySelector('.attachment-photo img').src")
    assert fetch_status(carol, image_url)["status"] == 404
    assert fetch_status(carol, url)["status"] == 404


@pytest.mark.flow
def test_a_slow_upload_shows_progress_and_can_be_cancelled(browsers, tmp_path):
    big = tmp_path / "video.bin"
    big.write_bytes(bytes(range(256)) * 2048)  # 512 KiB
    alice = browsers("alice")
    alice.open_conversation("Bob")
    alice.driver.execute_cdp_cmd("Network.enable", {})
    alice.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 20, "downloadThroughput": 1_000_000, "uploadThroughput": 64 * 1024})
    alice.find(".composer input[type=file]")[0].send_keys(str(big))
    alice.press("Send")
    bar = alice.wait(lambda: (alice.visible(".composer-uploads .upload-progress") or [None])[0], "the upload's progress bar")
    assert bar.get_attribute("aria-label") == "Uploading video.bin"
    alice.wait(lambda: 0 < float(bar.get_attribute("value") or 0) < 1, "the upload partly done")
    alice.shot("uploading")
    alice.press("Cancel video.bin")
    alice.wait(lambda: not alice.visible(".composer-uploads .upload"), "the upload gone")
    alice.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    alice.send_text("after the cancel")
    alice.wait_for_text_bubble("after the cancel")
    assert not alice.find(".transcript-list .attachment-file"), "a cancelled upload sends nothing"
