// Settings › Password and sign-in: change the password (the current one asked again; every other
// device is signed out) and sign out everywhere.

import { api } from './api.js';
import { announce, focus, h, replaceChildren } from './dom.js';
import { state } from './state.js';
import { rules } from './rules.js';

/** Focuses `el` and scrolls it into sight inside the settings panel, which scrolls on short
 * windows (focus() itself is told not to scroll). */
function reveal(el) {
  focus(el);
  el?.scrollIntoView?.({ block: 'nearest' });
}

export class SecuritySettings {
  /** onSignOutEverywhere() → Promise: ends every sign-in, this tab's too, and leaves for the
   * sign-in page; rejects with the server's reason when it could not. */
  constructor({ onSignOutEverywhere }) {
    this.onSignOutEverywhere = onSignOutEverywhere;
    // Said through the page's announcer: a live region of its own would say it twice.
    this.status = h('p', { class: 'setting-hint security-status' });
    this.changeButton = h('button', {
      type: 'button', class: 'link-button', text: 'Change password…',
      attrs: { 'aria-expanded': 'false', 'aria-controls': 'password-form' },
      on: { click: () => this.showForm(this.form.hidden) },
    });
    this.everywhereButton = h('button', {
      type: 'button', class: 'link-button', text: 'Sign out everywhere…',
      on: { click: () => this.confirmEverywhere(true) },
    });
    this.confirm = h('div', { class: 'security-confirm', hidden: true, attrs: { role: 'group', 'aria-labelledby': 'everywhere-question' } },
      h('p', { class: 'setting-hint', id: 'everywhere-question', text: 'Sign out of Parlor on every device and browser, this one included?' }),
      h('span', { class: 'security-actions' },
        h('button', { type: 'button', class: 'button button-danger', text: 'Sign out everywhere', on: { click: () => this.signOutEverywhere() } }),
        h('button', { type: 'button', class: 'link-button', text: 'Cancel', on: { click: () => this.confirmEverywhere(false) } })));
    this.error = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.form = h('form', { class: 'password-form', id: 'password-form', hidden: true, attrs: { novalidate: '', 'aria-label': 'Change password' } });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.changePassword();
    });
    this.element = h('div', { class: 'setting-security', attrs: { role: 'group', 'aria-labelledby': 'security-heading' } },
      h('span', { class: 'setting-name', id: 'security-heading', text: 'Password and sign-in' }),
      h('span', { class: 'setting-picture-actions' }, this.changeButton, this.everywhereButton),
      this.form, this.confirm, this.status);
  }

  field(label, name, autocomplete) {
    const id = `password-${name}`;
    return h('div', { class: 'form-field' },
      h('label', { htmlFor: id, text: label }),
      h('input', { id, name, type: 'password', required: true, autocomplete }));
  }

  showForm(open) {
    this.form.hidden = !open;
    this.changeButton.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (!open) {
      focus(this.changeButton);
      return;
    }
    this.confirmEverywhere(false, { keepFocus: true });
    this.error.textContent = '';
    this.status.textContent = '';
    replaceChildren(this.form,
      // Whose password this is, for password managers (they offer to update the saved one).
      h('input', { type: 'text', name: 'username', autocomplete: 'username', value: state.me?.username ?? '', hidden: true, tabIndex: -1 }),
      this.field('Current password', 'current', 'current-password'),
      this.field('New password', 'new', 'new-password'),
      h('p', { class: 'form-hint', text: `At least ${rules.minPasswordLength} characters. Your other devices will be signed out.` }),
      this.error,
      h('span', { class: 'security-actions' },
        h('button', { type: 'submit', class: 'button button-primary', text: 'Change password' }),
        h('button', { type: 'button', class: 'link-button', text: 'Cancel', on: { click: () => this.showForm(false) } })));
    reveal(this.form.querySelector('input[name=current]'));
  }

  async changePassword() {
    const data = Object.fromEntries(new FormData(this.form));
    const submit = this.form.querySelector('button[type=submit]');
    submit.disabled = true;
    this.error.textContent = '';
    try {
      const answer = await api('/api/me/password', { method: 'POST', body: { currentPassword: data.current, newPassword: data.new } });
      const others = answer?.ended ?? 0;
      const said = `Password changed.${others ? ` ${others === 1 ? 'One other device was' : `${others} other devices were`} signed out.` : ''}`;
      this.showForm(false);
      this.status.textContent = said;
      announce(said);
    } catch (failure) {
      this.error.textContent = failure.message;
      submit.disabled = false;
      const wrongCurrent = failure.code === 'wrongPassword' || failure.code === 'tooManyAttempts';
      reveal(this.form.querySelector(wrongCurrent ? 'input[name=current]' : 'input[name=new]'));
    }
  }

  confirmEverywhere(open, { keepFocus = false } = {}) {
    this.confirm.hidden = !open;
    if (open) {
      this.showForm(false);
      this.status.textContent = '';
      reveal(this.confirm.querySelector('button'));
    } else if (!keepFocus) {
      focus(this.everywhereButton);
    }
  }

  async signOutEverywhere() {
    try {
      await this.onSignOutEverywhere();
    } catch (failure) {
      this.status.textContent = failure.message;
      announce(failure.message);
    }
  }
}
