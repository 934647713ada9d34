// Signing in and signing up.

import { api } from './api.js';
import { focus, h, replaceChildren } from './dom.js';
import { rules } from './rules.js';

/** Where the sign-in page learns, after the reload, that the tab was signed out from elsewhere. */
const SIGNED_OUT_NOTE = 'parlor.signedOut';

/** Tells the next sign-in page of this tab that the sign-in ended elsewhere. */
export function noteSignedOut() {
  try {
    sessionStorage.setItem(SIGNED_OUT_NOTE, '1');
  } catch {
    // Without storage the page just asks to sign in.
  }
}

/** Whether the sign-in ended elsewhere (said once). */
function wasSignedOut() {
  try {
    const noted = sessionStorage.getItem(SIGNED_OUT_NOTE) === '1';
    sessionStorage.removeItem(SIGNED_OUT_NOTE);
    return noted;
  } catch {
    return false;
  }
}

/** Draws the sign-in screen in `root`; calls onSignedIn(user) once the person is in. */
export function showAuth(root, onSignedIn) {
  let mode = 'signin';
  const error = h('p', { class: 'auth-error', attrs: { role: 'alert' } });
  const form = h('form', { class: 'auth-form', attrs: { novalidate: '' } });
  const heading = h('h1', { class: 'auth-title', tabIndex: -1 });
  const switcher = h('button', { type: 'button', class: 'link-button auth-switch' });

  const field = (label, name, type, autocomplete, extra = {}) => {
    const id = `auth-${name}`;
    return h('div', { class: 'form-field' },
      h('label', { htmlFor: id, text: label }),
      h('input', { id, name, type, required: true, autocomplete, ...extra }));
  };

  const draw = () => {
    const signingUp = mode === 'signup';
    heading.textContent = signingUp ? 'Create your account' : 'Sign in to Parlor';
    switcher.textContent = signingUp ? 'I have an account: sign in' : 'New here? Create an account';
    error.textContent = '';
    replaceChildren(form,
      field('Username', 'username', 'text', 'username', { autocapitalize: 'none', spellcheck: false, maxLength: rules.usernameLength.max }),
      signingUp ? field('Your name', 'displayName', 'text', 'name', { maxLength: rules.maxDisplayNameLength }) : null,
      field('Password', 'password', 'password', signingUp ? 'new-password' : 'current-password', { minLength: signingUp ? rules.minPasswordLength : undefined }),
      signingUp ? h('p', { class: 'form-hint', text: `At least ${rules.minPasswordLength} characters.` }) : null,
      error,
      h('button', { type: 'submit', class: 'button button-primary button-wide', text: signingUp ? 'Create account' : 'Sign in' }));
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(form));
    const submit = form.querySelector('button[type=submit]');
    submit.disabled = true;
    error.textContent = '';
    try {
      const body = mode === 'signup'
        ? { username: data.username.trim(), displayName: data.displayName.trim(), password: data.password }
        : { username: data.username.trim(), password: data.password };
      const session = await api(mode === 'signup' ? '/api/auth/signup' : '/api/auth/signin', { method: 'POST', body });
      onSignedIn(session.user);
    } catch (failure) {
      error.textContent = failure.message;
      submit.disabled = false;
      focus(form.querySelector('input'));
    }
  });

  switcher.addEventListener('click', () => {
    mode = mode === 'signin' ? 'signup' : 'signin';
    draw();
    focus(form.querySelector('input'));
  });

  // What the operator tells everyone here (the demo's accounts), when there is something.
  const notice = h('p', { class: 'auth-notice', attrs: { role: 'note' }, hidden: true });
  api('/api/auth/notice').then((answer) => {
    if (answer && typeof answer.notice === 'string' && answer.notice) {
      notice.textContent = answer.notice;
      notice.hidden = false;
    }
  }).catch(() => {});

  draw();
  if (wasSignedOut()) error.textContent = 'You were signed out: your password was changed, or you signed out everywhere. Sign in again.';
  replaceChildren(root, h('main', { class: 'auth' },
    h('div', { class: 'auth-card' },
      h('div', { class: 'auth-brand' }, h('span', { class: 'brand-mark brand-mark-large', attrs: { 'aria-hidden': 'true' } })),
      heading,
      h('p', { class: 'auth-lede', text: 'Messages with apps inside: games, polls, stickers and more.' }),
      notice,
      form,
      switcher)));
  focus(form.querySelector('input'));
}
