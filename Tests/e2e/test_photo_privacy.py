"""A photo sent in a conversation reaches its members without where and when it was taken or with
what camera: the server strips the Exif (all but the orientation), comments and the like, and
keeps the pixels exactly as they were. Checked with Pillow, which the server does not use."""

import base64
import io

import pytest
from PIL import Image
from PIL.TiffImagePlugin import IFDRational

MAKE = "ParlorTestCam"
MODEL = "Pocket Model X-17"
TAKEN = "2024:05:06 07:08:09"
COMMENT = b"Taken at home, 12 Rue des Lilas"
# Exif tags: IFD0's Make, Model, DateTime and Orientation; the pointers to the Exif and GPS IFDs.
MAKE_TAG, MODEL_TAG, DATETIME_TAG, ORIENTATION_TAG = 0x010F, 0x0110, 0x0132, 0x0112
EXIF_IFD, GPS_IFD, DATETIME_ORIGINAL_TAG = 0x8769, 0x8825, 0x9003


def photo_with_metadata() -> bytes:
    """A 64×48 JPEG of a pattern, with a camera, dates, a GPS position, Orientation 6 (a quarter
    turn clockwise) and a comment."""
    image = Image.new("RGB", (64, 48))
    image.putdata([((x * 4) % 256, (y * 5) % 256, (x * y) % 256) for y in range(48) for x in range(64)])
    exif = Image.Exif()
    exif[MAKE_TAG] = MAKE
    exif[MODEL_TAG] = MODEL
    exif[DATETIME_TAG] = TAKEN
    exif[ORIENTATION_TAG] = 6
    exif.get_ifd(EXIF_IFD)[DATETIME_ORIGINAL_TAG] = TAKEN
    gps = exif.get_ifd(GPS_IFD)
    gps[1], gps[2] = "N", (IFDRational(48), IFDRational(51), IFDRational(2958, 100))
    gps[3], gps[4] = "E", (IFDRational(2), IFDRational(17), IFDRational(4015, 100))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90, exif=exif, comment=COMMENT)
    return out.getvalue()


FETCH_BASE64 = """
    const done = arguments[arguments.length - 1];
    fetch(arguments[0]).then(async (r) => {
      const bytes = new Uint8Array(await r.arrayBuffer());
      let text = '';
      for (const b of bytes) text += String.fromCharCode(b);
      done({status: r.status, type: r.headers.get('content-type'), body: btoa(text)});
    }).catch((e) => done({error: String(e)}));
"""


@pytest.mark.flow
def test_a_photo_reaches_the_group_without_its_location_camera_or_comment(browsers, tmp_path):
    original = photo_with_metadata()
    # What is sent does carry all of it, or the checks on what arrives would prove nothing.
    sent = Image.open(io.BytesIO(original))
    sent_exif = sent.getexif()
    assert sent_exif.get_ifd(GPS_IFD)[2] and sent_exif[MAKE_TAG] == MAKE and sent_exif.get_ifd(EXIF_IFD)[DATETIME_ORIGINAL_TAG] == TAKEN
    assert sent.info.get("comment") == COMMENT and MAKE.encode() in original
    path = tmp_path / "IMG_0042.jpg"
    path.write_bytes(original)

    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Parlor demo")
    bob.open_conversation("Parlor demo")
    alice.find(".composer input[type=file]")[0].send_keys(str(path))
    alice.press("Send")
    selector = '.transcript-list .attachment-photo[aria-label="Photo IMG_0042.jpg: show it full size"] img'
    image = bob.wait(lambda: (bob.visible(selector) or [None])[0], "the photo at Bob's")
    size = bob.wait(lambda: bob.js("const i = arguments[0]; return i.complete && i.naturalWidth > 0 && [i.naturalWidth, i.naturalHeight]", image),
                    "the photo drawn")
    # Chromium turns a photo by its Exif orientation: stripped with the rest, it would lie on its side.
    assert size == [48, 64], f"drawn {size[0]}×{size[1]}: the orientation was lost"
    bob.shot("photo-received")

    fetched = bob.driver.execute_async_script(FETCH_BASE64, image.get_attribute("src"))
    assert fetched.get("status") == 200 and fetched.get("type") == "image/jpeg", fetched
    received = base64.b64decode(fetched["body"])
    assert MAKE.encode() not in received and MODEL.encode() not in received and COMMENT not in received

    photo = Image.open(io.BytesIO(received))
    exif = photo.getexif()
    assert not exif.get_ifd(GPS_IFD), "the GPS position is gone"
    assert not exif.get_ifd(EXIF_IFD), "the Exif IFD (DateTimeOriginal…) is gone"
    assert {tag: value for tag, value in exif.items()} == {ORIENTATION_TAG: 6}, "only the orientation is left"
    assert "comment" not in photo.info
    assert photo.size == sent.size and photo.tobytes() == sent.tobytes(), "the pixels are the ones sent"
