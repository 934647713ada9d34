"""Voice messages, recorded with Chromium's own MediaRecorder from its fake microphone
(`--use-fake-device-for-media-stream`, a beep): Alice records one and sends it; Bob sees its length
and waveform before loading it, plays it and changes its speed; Alice moves through hers by its
waveform, unplayed; a recording cancelled with Escape
is never sent; the microphone held down records until it is let go, then sends."""

import pytest
from selenium.webdriver import ActionChains
from selenium.webdriver.common.keys import Keys

VOICE_STATE = """
    const box = [...document.querySelectorAll('.transcript-list .voice-message')].at(-1);
    if (!box) return null;
    const audio = box.querySelector('audio');
    const play = box.querySelector('.voice-play');
    return {
        time: box.querySelector('.voice-time').textContent,
        label: play.getAttribute('aria-label'), pressed: play.getAttribute('aria-pressed'),
        bars: [...box.querySelectorAll('.voice-bar')].map((b) => parseFloat(b.style.height)),
        played: box.querySelectorAll('.voice-bar.is-played').length,
        currentTime: audio.currentTime, rate: audio.playbackRate, type: null,
        speed: box.querySelector('.voice-speed').textContent,
        count: document.querySelectorAll('.transcript-list .voice-message').length,
    };
"""


MICROPHONE_WATCH = """
    window.__streams = [];
    const ask = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => { const s = await ask(constraints); window.__streams.push(s); return s; };
"""
MICROPHONE_FREE = "return window.__streams.length > 0 && window.__streams.every((s) => s.getTracks().every((t) => t.readyState === 'ended'))"

# A long voice message's player (100 levels, the most a waveform holds), drawn by the page's own module.
LONG_PLAYER = """
    const done = arguments[0];
    import('/js/voice.js').then(({ voiceView }) => {
      const entry = document.createElement('div');
      entry.className = 'entry entry-mine';
      entry.style.cssText = 'position:fixed;left:0;top:0;width:390px';
      const player = voiceView('/blobs/' + 'ab'.repeat(32), { duration: 900000, waveform: Array.from({ length: 100 }, (_, i) => i % 101) });
      entry.append(player);
      document.body.append(entry);
      const box = player.getBoundingClientRect(), speed = player.querySelector('.voice-speed').getBoundingClientRect();
      const result = { bars: player.querySelectorAll('.voice-bar').length, time: player.querySelector('.voice-time').textContent,
                       speedInside: speed.right <= box.right + 0.5 && speed.left >= box.left };
      entry.remove();
      done(result);
    }).catch((error) => done({ error: String(error) }));
"""


# Where the newest voice message's ☺︎+ is beside its player, as with a text bubble: left of one's
# own, right of another's, a few pixels away.
REACT_BESIDE = """
    const entry = [...document.querySelectorAll('.transcript-list > .entry')].filter((e) => e.querySelector('.voice-message')).at(-1);
    const player = entry.querySelector('.voice-message').getBoundingClientRect();
    const react = entry.querySelector('.react-button').getBoundingClientRect();
    const side = react.right <= player.left ? 'left' : react.left >= player.right ? 'right' : 'over';
    return {side, gap: Math.round(side === 'left' ? player.left - react.right : react.left - player.right)};
"""


def voice_entry(person):
    return person.wait(lambda: [e for e in person.find(".transcript-list > .entry") if e.find_elements("css selector", ".voice-message")],
                       "the voice message's entry")[-1]


@pytest.mark.flow
def test_a_voice_message_is_recorded_sent_and_played_at_another_speed(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    alice.js(MICROPHONE_WATCH)

    alice.press("Record a voice message")
    alice.wait(lambda: alice.visible(".composer-recording"), "the recording bar")
    alice.wait(lambda: alice.find(".recording-time")[0].text == "0:02", "two seconds recorded", timeout=10)
    assert alice.js("return document.querySelector('.composer-voice').getAttribute('aria-pressed')") == "true"
    # One control sends the recording (the red one, showing Send's arrow), not a second Send beside it.
    sends = alice.js("return [...document.querySelectorAll('.composer button')].filter((b) => b.offsetParent && /^Send/.test(b.getAttribute('aria-label') ?? b.textContent)).map((b) => b.getAttribute('aria-label'))")
    assert sends == ["Send the voice message"], sends
    assert alice.js("return document.querySelector('.composer-voice .icon').classList.contains('icon-send')")
    alice.shot("recording")
    # On a phone's width the bar keeps Cancel whole, clear of the red button.
    alice.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    fit = alice.wait(lambda: alice.js("""
        const cancel = document.querySelector('.recording-cancel').getBoundingClientRect();
        const send = document.querySelector('.composer-voice').getBoundingClientRect();
        const bar = document.querySelector('.composer-recording').getBoundingClientRect();
        return innerWidth === 390 && {clear: cancel.right <= send.left, inside: cancel.right <= bar.right + 0.5, width: cancel.width};
    """), "the phone's width")
    assert fit["clear"] and fit["inside"] and fit["width"] > 40, fit
    alice.shot("recording-phone")
    alice.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    alice.press("Send the voice message")
    alice.wait(lambda: not alice.visible(".composer-recording"), "the recording bar gone")
    alice.wait(lambda: alice.js(MICROPHONE_FREE), "the microphone let go once sent")

    state = bob.wait(lambda: bob.js(VOICE_STATE), "Alice's voice message at Bob's")
    assert state["time"] in ("0:02", "0:03"), state
    assert state["label"] in ("Play voice message, 2 seconds", "Play voice message, 3 seconds"), state["label"]
    assert len(state["bars"]) > 10, "a waveform measured while recording"
    assert max(state["bars"]) > min(state["bars"]), f"the beep is louder than the quiet between: {state['bars']}"
    bob.assert_accessible("a conversation with a voice message")
    bob.shot("voice message")
    # The longest waveform fits its player: drawn in at most 40 bars, the speed button inside.
    long = bob.driver.execute_async_script(LONG_PLAYER)
    assert long == {"bars": 40, "time": "15:00", "speedInside": True}, long

    # Played, then paused: the button says Pause while it plays, the waveform fills.
    bob.press(state["label"])
    bob.wait(lambda: (s := bob.js(VOICE_STATE))["pressed"] == "true" and s["currentTime"] > 0.3, "the recording playing")
    assert bob.js(VOICE_STATE)["label"].startswith("Pause voice message")
    bob.press(bob.js(VOICE_STATE)["label"])
    paused = bob.wait(lambda: (s := bob.js(VOICE_STATE))["pressed"] == "false" and s, "paused")
    assert paused["played"] > 0, "the waveform filled as far as it played"
    # Its ☺︎+ right beside it on a desktop, on the side a text bubble has it: left of Alice's own
    # message (it was at the far side of the transcript), right of hers at Bob's.
    mine, theirs = alice.js(REACT_BESIDE), bob.js(REACT_BESIDE)
    assert mine["side"] == "left" and mine["gap"] <= 12, mine
    assert theirs["side"] == "right" and theirs["gap"] <= 12, theirs
    # A reaction redraws the message: the player is the same, where it was.
    entry = voice_entry(alice)
    ActionChains(alice.driver).move_to_element(entry).perform()
    alice.shot("own voice message hovered")
    alice.click(lambda: voice_entry(alice).find_element("css selector", ".react-button"), "the voice message's ☺︎+")
    alice.press("Love", root=alice.wait(lambda: (alice.visible(".reaction-picker") or [None])[0], "the reaction picker"))
    bob.wait(lambda: voice_entry(bob).find_elements("css selector", ".reaction-chip"), "Alice's heart at Bob's")
    after = bob.js(VOICE_STATE)
    assert abs(after["currentTime"] - paused["currentTime"]) < 0.01 and after["played"] == paused["played"], (paused, after)

    # Played on at 1.5× to its end.
    bob.press(after["label"])
    bob.press("Playback speed 1×")
    now = bob.js(VOICE_STATE)
    assert (now["speed"], now["rate"]) == ("1.5×", 1.5), now
    bob.wait(lambda: bob.js(VOICE_STATE)["pressed"] == "false", "the end of the recording", timeout=10)

    # Moved through by its waveform, a slider. At Alice's it was never played: pressed at three
    # quarters, the file loads (a WebM recording with no cues to seek by) and it is there.
    slider = alice.wait(lambda: voice_entry(alice).find_element("css selector", ".voice-waveform[role=slider]"), "the waveform's slider")
    ActionChains(alice.driver).move_to_element_with_offset(slider, int(slider.size["width"] * 0.25), 0).click().perform()
    position = "const a = [...document.querySelectorAll('.transcript-list .voice-message audio')].at(-1); return Number.isFinite(a.duration) && a.duration > 0 ? a.currentTime / a.duration : -1"
    alice.wait(lambda: 0.6 <= alice.js(position) <= 0.9, "three quarters through, unplayed")
    assert alice.js(VOICE_STATE)["played"] > 0, "the waveform shows where it is"
    # From the keyboard: Home, then a second on.
    ActionChains(alice.driver).send_keys(Keys.HOME).perform()
    alice.wait(lambda: alice.js(position) == 0, "back at the start")
    ActionChains(alice.driver).send_keys(Keys.ARROW_RIGHT).perform()
    alice.wait(lambda: slider.get_attribute("aria-valuenow") == "1", "a second in")
    assert slider.get_attribute("aria-valuetext").startswith("0:01 of "), slider.get_attribute("aria-valuetext")

    # Cancelled with Escape: nothing is sent, and the microphone is let go.
    alice.press("Record a voice message")
    alice.wait(lambda: alice.find(".recording-time")[0].text == "0:01", "a second recorded", timeout=10)
    ActionChains(alice.driver).send_keys(Keys.ESCAPE).perform()
    alice.wait(lambda: not alice.visible(".composer-recording"), "the recording cancelled")
    assert alice.js("return document.activeElement.classList.contains('composer-voice')"), alice.focused_element()
    alice.wait(lambda: alice.js(MICROPHONE_FREE), "the microphone let go once cancelled")
    alice.send_text("After the cancelled one")
    bob.wait_for_text_bubble("After the cancelled one")
    assert bob.js(VOICE_STATE)["count"] == 1, "the cancelled recording was not sent"
    assert alice.js("return document.querySelectorAll('.transcript-list .voice-message').length") == 1

    # Held down, as in Messages: it records while the button is held and goes when it is let go.
    button = alice.find(".composer-voice")[0]
    ActionChains(alice.driver).click_and_hold(button).perform()
    alice.wait(lambda: alice.visible(".composer-recording") and alice.find(".recording-time")[0].text == "0:01",
               "recording while held", timeout=10)
    ActionChains(alice.driver).release(button).perform()
    alice.wait(lambda: not alice.visible(".composer-recording"), "sent once let go")
    held = bob.wait(lambda: (s := bob.js(VOICE_STATE))["count"] == 2 and s, "the held recording at Bob's")
    assert held["time"] in ("0:01", "0:02"), held
    alice.wait(lambda: alice.js(MICROPHONE_FREE), "the microphone let go once the press ended")
    # Slid away before letting go, as any press is undone: thrown away, never sent.
    ActionChains(alice.driver).click_and_hold(button).perform()
    alice.wait(lambda: alice.visible(".composer-recording") and alice.find(".recording-time")[0].text == "0:01",
               "recording while held again", timeout=10)
    ActionChains(alice.driver).move_by_offset(-300, -200).release().perform()
    alice.wait(lambda: not alice.visible(".composer-recording"), "the recording thrown away")
    alice.wait(lambda: alice.js(MICROPHONE_FREE), "the microphone let go")
    alice.send_text("After the slid-away one")
    bob.wait_for_text_bubble("After the slid-away one")
    assert bob.js(VOICE_STATE)["count"] == 2, "the recording slid away from was not sent"
