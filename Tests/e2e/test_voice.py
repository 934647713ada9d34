"""Voice messages, recorded with Chromium's own MediaRecorder from its fake microphone
(`--use-fake-device-for-media-stream`, a beep): Alice records one and sends it; Bob sees its length
and waveform before loading it, plays it and changes its speed; a recording cancelled with Escape
is never sent."""

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


@pytest.mark.flow
def test_a_voice_message_is_recorded_sent_and_played_at_another_speed(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")

    alice.press("Record a voice message")
    alice.wait(lambda: alice.visible(".composer-recording"), "the recording bar")
    alice.wait(lambda: alice.find(".recording-time")[0].text == "0:02", "two seconds recorded", timeout=10)
    assert alice.js("return document.querySelector('.composer-voice').getAttribute('aria-pressed')") == "true"
    alice.shot("recording")
    alice.press("Send the voice message")
    alice.wait(lambda: not alice.visible(".composer-recording"), "the recording bar gone")

    state = bob.wait(lambda: bob.js(VOICE_STATE), "Alice's voice message at Bob's")
    assert state["time"] in ("0:02", "0:03"), state
    assert state["label"] in ("Play voice message, 2 seconds", "Play voice message, 3 seconds"), state["label"]
    assert len(state["bars"]) > 10, "a waveform measured while recording"
    assert max(state["bars"]) > min(state["bars"]), f"the beep is louder than the quiet between: {state['bars']}"
    bob.assert_accessible("a conversation with a voice message")
    bob.shot("voice message")

    # Played: the button says Pause, the time runs and the waveform fills; 1.5× speeds it up.
    bob.press(state["label"])
    bob.wait(lambda: (s := bob.js(VOICE_STATE))["pressed"] == "true" and s["currentTime"] > 0.3, "the recording playing")
    bob.press("Playback speed 1×")
    now = bob.js(VOICE_STATE)
    assert (now["speed"], now["rate"]) == ("1.5×", 1.5), now
    assert now["label"].startswith("Pause voice message"), now["label"]
    bob.wait(lambda: bob.js(VOICE_STATE)["played"] > 0, "the waveform filling as it plays")
    bob.wait(lambda: bob.js(VOICE_STATE)["pressed"] == "false", "the end of the recording", timeout=10)

    # Cancelled with Escape: nothing is sent, and the microphone is let go.
    alice.press("Record a voice message")
    alice.wait(lambda: alice.find(".recording-time")[0].text == "0:01", "a second recorded", timeout=10)
    ActionChains(alice.driver).send_keys(Keys.ESCAPE).perform()
    alice.wait(lambda: not alice.visible(".composer-recording"), "the recording cancelled")
    assert alice.js("return document.activeElement.classList.contains('composer-voice')"), alice.focused_element()
    alice.send_text("After the cancelled one")
    bob.wait_for_text_bubble("After the cancelled one")
    assert bob.js(VOICE_STATE)["count"] == 1, "the cancelled recording was not sent"
