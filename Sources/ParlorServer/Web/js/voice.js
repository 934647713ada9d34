// Voice messages: recorded in the compose bar with the browser's MediaRecorder (Opus where the
// browser has it), measured while they are recorded (their length, and their loudness as a
// waveform), uploaded and sent as files are, and played in the transcript with a speed control.
// The server checks that the bytes are a recording and that the length and waveform are within
// its rules (GET /api/rules `voice`).

import { h } from './dom.js';
import { rules, voiceBounds } from './rules.js';

/** What MediaRecorder is asked for, best first: what the server takes as a recording. */
const RECORDING_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm', 'audio/mp4'];
/** How often the loudness is measured while recording, in milliseconds. */
const SAMPLE_EVERY = 50;
/** The playback speeds the speed button goes through. */
const SPEEDS = [1, 1.5, 2];
/** Speech needs no more (Opus at 32 kbit/s): 15 minutes stay within a few megabytes. */
const BITS_PER_SECOND = 32_000;
/** The most bars a player draws: a longer waveform is drawn by the loudest of each stretch. */
const BARS = 40;

/** "0:07", "12:30". */
export function durationLabel(milliseconds) {
  const seconds = Math.max(0, Math.round(milliseconds / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** "7 seconds", "2 minutes 5 seconds": for screen readers. */
function spokenDuration(milliseconds) {
  const seconds = Math.max(1, Math.round(milliseconds / 1000));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const part = (n, unit) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes === 0) return part(rest, 'second');
  return rest === 0 ? part(minutes, 'minute') : `${part(minutes, 'minute')} ${part(rest, 'second')}`;
}

/** `levels` in at most `count` stretches, each the loudest of its stretch. */
function pooled(levels, count) {
  if (levels.length <= count) return levels;
  const out = [];
  for (let i = 0; i < count; i += 1) {
    out.push(Math.max(...levels.slice(Math.floor((i * levels.length) / count), Math.floor(((i + 1) * levels.length) / count))));
  }
  return out;
}

/** `levels` (loudness from 0 to 1, one per sample) as the server's waveform (`voiceBounds()`). */
export function waveformOf(levels) {
  const { maxLevels, maxLevel } = voiceBounds();
  if (levels.length === 0) return [0];
  return pooled(levels, maxLevels).map((level) => Math.round(Math.min(1, Math.max(0, level)) * maxLevel));
}

/** One recording from the microphone. `onTick(milliseconds, level)` while it records;
 * `onLimit()` when it reaches the server's longest voice message or nears its largest upload. */
export class VoiceRecorder {
  constructor({ onTick = () => {}, onLimit = () => {} } = {}) {
    this.onTick = onTick;
    this.onLimit = onLimit;
    this.levels = [];
    this.chunks = [];
  }

  /** Whether this browser can record, for a server that takes voice messages. */
  static get supported() {
    return Boolean(navigator.mediaDevices?.getUserMedia && window.MediaRecorder && voiceBounds());
  }

  /** Whether it records yet (the microphone may still be asked for). */
  get started() {
    return this.startedAt !== undefined;
  }

  /** Starts recording; rejects with a sentence when the microphone cannot be used. */
  async start() {
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      throw new Error(error?.name === 'NotAllowedError'
        ? 'Parlor may not use the microphone: allow it in your browser’s settings for this site, then try again.'
        : 'No microphone could be opened for a voice message.');
    }
    const type = RECORDING_TYPES.find((t) => MediaRecorder.isTypeSupported?.(t));
    this.recorder = new MediaRecorder(this.stream, { ...(type ? { mimeType: type } : {}), audioBitsPerSecond: BITS_PER_SECOND });
    this.bytes = 0;
    this.recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size === 0) return;
      this.chunks.push(event.data);
      this.bytes += event.data.size;
    });
    this.stopped = new Promise((resolve) => this.recorder.addEventListener('stop', resolve, { once: true }));
    // The loudness, measured as it is recorded: the waveform is known before anyone plays it.
    this.audio = new AudioContext();
    const analyser = this.audio.createAnalyser();
    analyser.fftSize = 1024;
    this.audio.createMediaStreamSource(this.stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    this.recorder.start(250);
    this.startedAt = performance.now();
    const limit = this.maxDuration;
    // Stopped a little before the largest upload, so that the recording is never refused for its size.
    const maxBytes = rules.maxUploadBytes * 0.95;
    this.timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      // RMS on a rough loudness scale: speech sits around 0.05–0.3, so it is stretched.
      const level = Math.min(1, Math.sqrt(sum / samples.length) * 4);
      this.levels.push(level);
      const elapsed = performance.now() - this.startedAt;
      this.onTick(elapsed, level);
      if (elapsed >= limit || this.bytes >= maxBytes) this.onLimit();
    }, SAMPLE_EVERY);
  }

  /** Stops; resolves to the recording as a File with its `voice` (duration and waveform). */
  async finish() {
    const duration = Math.max(1, Math.round(performance.now() - this.startedAt));
    await this.end();
    const type = (this.recorder?.mimeType || 'audio/webm').split(';')[0];
    const extension = { 'audio/ogg': 'ogg', 'audio/mp4': 'm4a' }[type] ?? 'webm';
    const file = new File(this.chunks, `Voice message.${extension}`, { type });
    return { file, voice: { duration: Math.min(duration, this.maxDuration), waveform: waveformOf(this.levels) } };
  }

  /** The longest voice message the server takes, in milliseconds. */
  get maxDuration() {
    return voiceBounds().maxSeconds * 1000;
  }

  /** Stops and throws the recording away. */
  async cancel() {
    await this.end();
    this.chunks = [];
  }

  async end() {
    clearInterval(this.timer);
    if (this.recorder && this.recorder.state !== 'inactive') {
      this.recorder.stop();
      await this.stopped;
    }
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    await this.audio?.close().catch(() => {});
  }
}

/** The bars of a waveform (levels from 0 to the server's `maxLevel`), at most `BARS` of them. */
export function waveformBars(waveform) {
  const maxLevel = voiceBounds()?.maxLevel || Math.max(1, ...waveform);
  const box = h('span', { class: 'voice-waveform', attrs: { 'aria-hidden': 'true' } });
  for (const level of pooled(waveform, BARS)) {
    const bar = h('span', { class: 'voice-bar' });
    bar.style.height = `${Math.max(8, Math.round((100 * level) / maxLevel))}%`;
    box.append(bar);
  }
  return box;
}

/** A voice message in the transcript: play and pause, its waveform filling as it plays and a
 * slider to move through it (pressed or dragged, or the arrow keys, Page Up and Down, Home and
 * End), its length (the time left while it plays), and the speed (1×, 1.5×, 2×). */
export function voiceView(url, voice) {
  const audio = h('audio', { preload: 'none', src: url });
  const bars = waveformBars(voice.waveform);
  const time = h('span', { class: 'voice-time', text: durationLabel(voice.duration) });
  const icon = h('span', { class: 'icon icon-play', attrs: { 'aria-hidden': 'true' } });
  const spoken = spokenDuration(voice.duration);
  const play = h('button', {
    type: 'button', class: 'voice-play', attrs: { 'aria-label': `Play voice message, ${spoken}`, 'aria-pressed': 'false' },
    on: { click: () => (audio.paused ? audio.play().catch(() => {}) : audio.pause()) },
  }, icon);
  let speed = 0;
  const speedButton = h('button', {
    type: 'button', class: 'voice-speed', text: '1×', attrs: { 'aria-label': 'Playback speed 1×' },
    on: {
      click: () => {
        speed = (speed + 1) % SPEEDS.length;
        audio.playbackRate = SPEEDS[speed];
        speedButton.textContent = `${SPEEDS[speed]}×`;
        speedButton.setAttribute('aria-label', `Playback speed ${SPEEDS[speed]}×`);
      },
    },
  });
  const showPlaying = () => {
    const playing = !audio.paused && !audio.ended;
    icon.className = `icon ${playing ? 'icon-pause' : 'icon-play'}`;
    play.setAttribute('aria-pressed', playing ? 'true' : 'false');
    play.setAttribute('aria-label', `${playing ? 'Pause' : 'Play'} voice message, ${spoken}`);
  };
  // The recording's own length is not always in its file (a browser's WebM recording has none):
  // the measured one is the length.
  const showProgress = () => {
    const at = audio.ended ? 0 : audio.currentTime * 1000;
    const fraction = Math.min(1, at / voice.duration);
    const played = Math.round(fraction * bars.children.length);
    [...bars.children].forEach((bar, index) => bar.classList.toggle('is-played', index < played));
    time.textContent = at > 0 ? durationLabel(voice.duration - at) : durationLabel(voice.duration);
  };
  audio.addEventListener('play', showPlaying);
  audio.addEventListener('pause', showPlaying);
  audio.addEventListener('ended', () => {
    // Back to the start, as the slider and the time say: a replay, or an arrow key, starts there.
    audio.currentTime = 0;
    showPlaying();
    showProgress();
  });
  audio.addEventListener('timeupdate', showProgress);
  // Keeps its rate across a replay (a media element may reset it on a new load).
  audio.addEventListener('play', () => { audio.playbackRate = SPEEDS[speed]; });
  scrubber(audio, bars, voice.duration, showProgress);
  return h('div', { class: 'voice-message', attrs: { role: 'group', 'aria-label': 'Voice message' } }, play, bars, time, speedButton, audio);
}

/** Makes a voice message's waveform the slider of its position: pressed or dragged with the
 * pointer, or moved with the keyboard, it seeks the recording there, loading it first if needed. */
function scrubber(audio, bars, duration, showProgress) {
  const seconds = Math.round(duration / 1000);
  bars.removeAttribute('aria-hidden');
  bars.tabIndex = 0;
  const label = `Position in the voice message, ${spokenDuration(duration)}`;
  for (const [name, value] of Object.entries({ role: 'slider', 'aria-label': label, 'aria-valuemin': '0', 'aria-valuemax': String(seconds) })) {
    bars.setAttribute(name, value);
  }
  // A recording that ends goes back to its start (voiceView), so its time is where it is.
  const showValue = () => {
    const at = Math.min(duration, audio.currentTime * 1000);
    bars.setAttribute('aria-valuenow', String(Math.round(at / 1000)));
    bars.setAttribute('aria-valuetext', `${durationLabel(at)} of ${durationLabel(duration)}`);
  };
  showValue();
  audio.addEventListener('timeupdate', showValue);

  // Where to go, as a fraction of the recording: the length measured while recording and the
  // file's own (once the browser knows it) may differ by a moment.
  let wanted = null;
  let reading = false;
  const length = () => (Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration * 1000 : duration);
  const apply = () => {
    if (wanted === null || audio.readyState < 1) return;
    // A browser's WebM recording carries neither its length nor cues to seek by: asking for a
    // time past its end makes the browser read it through once, and then it seeks.
    if (!Number.isFinite(audio.duration)) {
      if (!reading) {
        reading = true;
        audio.addEventListener('durationchange', () => { reading = false; apply(); }, { once: true });
        audio.currentTime = 1e101;
      }
      return;
    }
    audio.currentTime = wanted * audio.duration;
    wanted = null;
    showProgress();
    showValue();
  };
  audio.addEventListener('loadedmetadata', apply);
  const seek = (fraction) => {
    wanted = Math.max(0, Math.min(1, fraction));
    if (audio.readyState < 1) {
      audio.preload = 'auto';
      audio.load();
    } else {
      apply();
    }
  };
  const at = (event) => {
    const box = bars.getBoundingClientRect();
    return Math.max(0, Math.min(box.width, event.clientX - box.left)) / Math.max(1, box.width);
  };
  // A tap or click seeks where it lands; a drag sideways seeks as it goes. A swipe up or down
  // scrolls the transcript (the browser takes it: pointercancel), and seeks nothing.
  let press = null;
  bars.addEventListener('pointerdown', (event) => {
    if (event.isPrimary && event.button === 0) press = { id: event.pointerId, x: event.clientX, dragging: false };
  });
  bars.addEventListener('pointermove', (event) => {
    if (press?.id !== event.pointerId) return;
    if (!press.dragging && Math.abs(event.clientX - press.x) > 4) {
      press.dragging = true;
      bars.setPointerCapture(event.pointerId);
    }
    if (press.dragging) seek(at(event));
  });
  bars.addEventListener('pointerup', (event) => {
    if (press?.id === event.pointerId) seek(at(event));
    press = null;
  });
  bars.addEventListener('pointercancel', () => { press = null; });
  bars.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const now = wanted ?? (audio.currentTime * 1000) / length();
    const step = { ArrowRight: 1000, ArrowUp: 1000, ArrowLeft: -1000, ArrowDown: -1000, PageUp: 10_000, PageDown: -10_000 }[event.key];
    const to = step !== undefined ? now + step / length() : event.key === 'Home' ? 0 : event.key === 'End' ? 1 : null;
    if (to === null) return;
    event.preventDefault();
    seek(to);
  });
}
