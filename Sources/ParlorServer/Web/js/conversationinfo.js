// A conversation's details, in a dialog opened from its header: the title (a group's, to rename),
// the members with their pictures, who is admin and who is you, Block / Unblock beside each other
// member; for a group, adding people, removing them, naming admins and leaving. It offers only what the server allows (any member
// renames, adds and leaves; a group's admins remove others and name admins), and when the server
// refuses all the same (another tab changed things meanwhile), its sentence is shown beside the
// control. Others' changes arrive as `conversation` frames and redraw it while it is open.

import * as client from './client.js';
import { avatarView, conversationAvatar } from './avatars.js';
import { upload } from './attachments.js';
import { blockButton, loadBlocked } from './blocks.js';
import { announce, dialogHeader, focus, h, replaceChildren } from './dom.js';
import { PeoplePicker } from './newconversation.js';
import { rules } from './rules.js';
import { conversationTitle, state } from './state.js';

/** Back to the conversation list, with the focus on it (the conversation's view goes away). */
function goToList() {
  window.addEventListener('hashchange', () => {
    focus(document.querySelector('.conversation-link') ?? document.getElementById('main'));
  }, { once: true });
  location.hash = '#/';
}

export class ConversationInfo {
  /** shell: { toast(message) } */
  constructor(conversationId, shell) {
    this.id = conversationId;
    this.shell = shell;
    /** Whether the person's list had the conversation: once it has not any more, they are out of it. */
    this.seen = false;
    /** While the person leaves on purpose (they are not told they were removed). */
    this.leaving = false;
    /** Member id → the server's sentence refusing what was asked for them. */
    this.memberErrors = new Map();
    this.opener = null;
    this.onHashChange = () => this.close();

    this.heading = h('h2', { id: 'conversation-info-title' });
    this.titleInput = h('input', {
      type: 'text', id: 'conversation-info-name', class: 'input', autocomplete: 'off',
      // The server's limit (GET /api/rules), never a copy of it.
      maxLength: rules.maxTitleLength, placeholder: 'No name: members’ names show',
      attrs: { 'aria-describedby': 'conversation-info-name-error' },
    });
    this.titleError = h('p', { class: 'form-error', id: 'conversation-info-name-error', attrs: { role: 'alert' } });
    this.renameButton = h('button', { type: 'submit', class: 'button button-secondary', text: 'Rename' });
    this.titleForm = h('form', { class: 'info-title', on: { submit: (event) => this.rename(event) } },
      h('div', { class: 'form-field' },
        h('label', { htmlFor: 'conversation-info-name', text: 'Group name' }),
        h('div', { class: 'info-title-row' }, this.titleInput, this.renameButton)),
      this.titleError);

    // A group's photo: any member changes or removes it, as any member renames it.
    this.photoInput = h('input', {
      type: 'file', class: 'visually-hidden', accept: 'image/png,image/jpeg,image/gif,image/webp', tabIndex: -1, attrs: { 'aria-hidden': 'true' },
      on: { change: () => this.changePhoto(this.photoInput.files?.[0] ?? null) },
    });
    this.photoView = h('span', { class: 'info-photo-view' });
    this.choosePhoto = h('button', { type: 'button', class: 'button button-secondary', text: 'Change photo…', on: { click: () => this.photoInput.click() } });
    this.removePhoto = h('button', { type: 'button', class: 'button button-plain', text: 'Remove photo', on: { click: () => this.changePhoto(null) } });
    this.photoError = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.photo = h('div', { class: 'info-photo', attrs: { role: 'group', 'aria-label': 'Group photo' } },
      this.photoView, h('span', { class: 'info-photo-actions' }, this.choosePhoto, this.removePhoto), this.photoInput, this.photoError);

    this.person = h('div', { class: 'info-person' });
    this.membersHeading = h('h3', { class: 'info-section-title', id: 'conversation-info-members', tabIndex: -1 });
    this.members = h('ul', { class: 'info-members', attrs: { 'aria-labelledby': 'conversation-info-members' } });

    this.addButton = h('button', {
      type: 'button', class: 'button button-secondary info-add-button', text: 'Add people…',
      attrs: { 'aria-expanded': 'false', 'aria-controls': 'conversation-info-add' },
      on: { click: () => this.showAdding(this.addForm.hidden) },
    });
    this.addError = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.picker = new PeoplePicker({
      id: 'conversation-info-search', label: 'Find people to add',
      exclude: () => new Set((state.conversations.get(this.id)?.members ?? []).map((m) => m.username)),
      onChange: () => {
        const count = this.picker.picked.size;
        this.confirmAdd.disabled = count === 0;
        this.confirmAdd.textContent = count > 1 ? `Add ${count} people` : 'Add';
      },
      onError: (message) => { this.addError.textContent = message; },
    });
    this.confirmAdd = h('button', { type: 'submit', class: 'button button-primary', text: 'Add', disabled: true });
    this.addForm = h('form', { class: 'info-add', id: 'conversation-info-add', hidden: true, on: { submit: (event) => this.add(event) } },
      this.picker.elements,
      this.addError,
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'button button-plain', text: 'Cancel', on: { click: () => this.showAdding(false) } }),
        this.confirmAdd));

    this.leaveButton = h('button', {
      type: 'button', class: 'button button-plain info-leave', text: 'Leave conversation',
      on: { click: () => this.confirmLeaving(true) },
    });
    this.leaveQuestion = h('p', { id: 'conversation-info-leave-question' });
    this.cancelLeave = h('button', { type: 'button', class: 'button button-secondary', text: 'Cancel', on: { click: () => this.confirmLeaving(false) } });
    this.confirmLeave = h('button', { type: 'button', class: 'button button-danger', text: 'Leave', on: { click: () => this.leave() } });
    this.leaveConfirmation = h('div', {
      class: 'info-leave-confirmation', hidden: true, attrs: { role: 'group', 'aria-labelledby': 'conversation-info-leave-question' },
    }, this.leaveQuestion, h('div', { class: 'dialog-actions' }, this.cancelLeave, this.confirmLeave));
    this.leaveError = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.groupActions = h('div', { class: 'info-group-actions' },
      this.addButton, this.addForm, this.leaveButton, this.leaveConfirmation, this.leaveError);

    this.element = h('dialog', {
      class: 'dialog conversation-info-dialog', attrs: { 'aria-labelledby': 'conversation-info-title' },
      on: { close: () => this.closed() },
    }, h('div', { class: 'dialog-form' },
      dialogHeader(this.heading, { label: 'Close', onClose: () => this.close() }),
      this.person, this.photo, this.titleForm, this.membersHeading, this.members, this.groupActions));
  }

  get isOpen() {
    return this.element.open;
  }

  /** Opens the dialog; focus comes back to `opener` when it closes. */
  open(opener) {
    if (this.isOpen || !state.conversations.has(this.id)) return;
    this.opener = opener ?? document.activeElement;
    this.memberErrors.clear();
    this.titleError.textContent = '';
    this.leaveError.textContent = '';
    this.addError.textContent = '';
    this.showAdding(false, false);
    this.confirmLeaving(false, false);
    this.titleInput.value = state.conversations.get(this.id)?.title ?? '';
    this.render();
    // Block / Unblock beside each member follow the list once it is read.
    if (!state.blocked) loadBlocked().catch(() => {});
    // In the page only while open: the view it belongs to may be replaced meanwhile.
    document.body.append(this.element);
    window.addEventListener('hashchange', this.onHashChange);
    this.element.showModal();
  }

  close() {
    if (this.isOpen) this.element.close();
  }

  closed() {
    window.removeEventListener('hashchange', this.onHashChange);
    this.element.remove();
    const back = this.opener?.isConnected ? this.opener : document.getElementById('conversation-title');
    this.opener = null;
    focus(back);
  }

  /** The person deleted the conversation for themselves: it leaves their list without the news
   * that they are out of it. */
  deleted() {
    this.seen = false;
    this.close();
  }

  /** The list changed (a frame, or this person's own change): redraw, or go when they are out. */
  refresh() {
    if (state.conversations.has(this.id)) {
      this.seen = true;
      if (this.isOpen) this.render();
      return;
    }
    if (!this.seen || this.leaving) return;
    // Removed by an admin (here or on another device): the server shows them nothing more of it.
    this.seen = false;
    this.close();
    this.shell.toast('You are no longer in this conversation.');
    goToList();
  }

  render() {
    const conversation = state.conversations.get(this.id);
    if (!conversation) return;
    const me = state.me?.id;
    const isGroup = Boolean(conversation.isGroup);
    const admins = new Set(conversation.admins ?? []);
    const iAmAdmin = isGroup && admins.has(me);
    this.heading.textContent = isGroup ? 'Group info' : 'Conversation info';
    this.titleForm.hidden = !isGroup;
    this.photo.hidden = !isGroup;
    if (isGroup) {
      replaceChildren(this.photoView, conversationAvatar(conversation, 'avatar-large'));
      this.removePhoto.hidden = !conversation.photoURL;
    }
    // What the person is typing stays; otherwise the field follows renames by others.
    if (document.activeElement !== this.titleInput) this.titleInput.value = conversation.title ?? '';

    const others = conversation.members.filter((m) => m.id !== me);
    this.person.hidden = isGroup || others.length === 0;
    if (!isGroup && others[0]) {
      const other = others[0];
      replaceChildren(this.person,
        avatarView(other.displayName, other.id, other.avatarURL, 'avatar-large'),
        h('p', { class: 'info-person-name', text: other.displayName }),
        h('p', { class: 'info-person-username', text: `@${other.username}` }),
        other.about ? h('p', { class: 'info-person-about', text: other.about }) : null);
    }

    const count = conversation.members.length;
    this.membersHeading.textContent = count === 1 ? '1 member' : `${count} members`;
    // A redraw keeps the focus on the same control when it is still there.
    const focused = this.members.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    replaceChildren(this.members, conversation.members.map((member) => this.memberRow(member, { me, admins, iAmAdmin, isGroup })));
    if (focused) {
      const again = this.members.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      focus(again ?? this.membersHeading);
    }

    this.groupActions.hidden = !isGroup;
    this.leaveQuestion.textContent = `Leave “${conversationTitle(conversation)}”? Its messages will no longer reach you, and only a member can add you back.`;
  }

  memberRow(member, { me, admins, iAmAdmin, isGroup }) {
    const isMe = member.id === me;
    const isAdmin = admins.has(member.id);
    const actions = [];
    if (iAmAdmin) {
      // An admin names and removes admins, themselves included (the server keeps one at least).
      actions.push(h('button', {
        type: 'button', class: 'button button-plain info-member-action',
        text: isAdmin ? 'Remove admin' : 'Make admin',
        dataset: { key: `admin:${member.id}` },
        attrs: { 'aria-label': `${isAdmin ? 'Remove admin' : 'Make admin'}: ${member.displayName}` },
        on: { click: () => this.setAdmin(member, !isAdmin) },
      }));
      if (!isMe) {
        actions.push(h('button', {
          type: 'button', class: 'button button-plain info-member-action info-leave', text: 'Remove',
          dataset: { key: `remove:${member.id}` },
          attrs: { 'aria-label': `Remove ${member.displayName}` },
          on: { click: () => this.remove(member) },
        }));
      }
    }
    if (!isMe && state.blocked) actions.push(blockButton(member, (message) => this.showMemberError(member.id, message)));
    const error = this.memberErrors.get(member.id) ?? '';
    return h('li', { class: 'info-member', dataset: { userId: member.id, username: member.username } },
      avatarView(member.displayName, member.id, member.avatarURL, 'avatar-member'),
      h('span', { class: 'info-member-text' },
        h('span', { class: 'info-member-name', text: member.displayName }),
        h('span', { class: 'info-member-username', text: `@${member.username}` })),
      isGroup && isAdmin && h('span', { class: 'info-badge info-badge-admin', text: 'Admin' }),
      isMe && h('span', { class: 'info-badge info-badge-you', text: 'You' }),
      actions.length > 0 && h('span', { class: 'info-member-actions' }, actions),
      h('p', { class: 'form-error', text: error, attrs: { role: 'alert' } }));
  }

  /** Uploads `file` as the group's photo, or removes the photo (null). */
  async changePhoto(file) {
    this.photoInput.value = '';
    this.photoError.textContent = '';
    this.choosePhoto.disabled = true;
    this.removePhoto.disabled = true;
    try {
      await client.setConversationPhoto(this.id, file ? (await upload(file)).hash : null);
      announce(file ? 'Group photo changed.' : 'Group photo removed.');
    } catch (error) {
      this.photoError.textContent = error.message;
    } finally {
      this.choosePhoto.disabled = false;
      this.removePhoto.disabled = false;
      focus(this.choosePhoto);
    }
  }

  async rename(event) {
    event.preventDefault();
    const conversation = state.conversations.get(this.id);
    const title = this.titleInput.value.trim();
    if (!conversation || title === (conversation.title ?? '')) return;
    this.titleError.textContent = '';
    this.renameButton.disabled = true;
    try {
      const renamed = await client.renameConversation(this.id, title);
      this.titleInput.value = renamed.title ?? '';
      announce(renamed.title ? `Renamed “${renamed.title}”.` : 'Name removed: members’ names show.');
    } catch (error) {
      this.titleError.textContent = error.message;
    } finally {
      this.renameButton.disabled = false;
    }
  }

  /** Shows or hides the people to add; `moveFocus` to its search field, or back to its button. */
  showAdding(show, moveFocus = true) {
    this.addForm.hidden = !show;
    this.addButton.setAttribute('aria-expanded', show ? 'true' : 'false');
    this.addError.textContent = '';
    if (show) {
      this.picker.reset();
      if (moveFocus) focus(this.picker.search);
    } else if (moveFocus) {
      focus(this.addButton);
    }
  }

  async add(event) {
    event.preventDefault();
    const people = [...this.picker.picked.values()];
    if (people.length === 0) return;
    this.addError.textContent = '';
    this.confirmAdd.disabled = true;
    try {
      // One at a time, as the server adds them: a refusal names who was not added.
      for (const person of people) {
        await client.addMember(this.id, person.username);
        this.picker.picked.delete(person.username);
      }
      announce(`Added ${people.map((p) => p.displayName).join(', ')}.`);
      this.showAdding(false);
    } catch (error) {
      this.addError.textContent = error.message;
      this.picker.renderPicked();
      this.picker.find();
    }
  }

  async remove(member) {
    this.memberErrors.delete(member.id);
    try {
      await client.removeMember(this.id, member.id);
      announce(`Removed ${member.displayName}.`);
    } catch (error) {
      this.showMemberError(member.id, error.message);
    }
  }

  async setAdmin(member, isAdmin) {
    this.memberErrors.delete(member.id);
    try {
      await client.setAdmin(this.id, member.id, isAdmin);
      announce(isAdmin ? `${member.displayName} is an admin.` : `${member.displayName} is no longer an admin.`);
    } catch (error) {
      this.showMemberError(member.id, error.message);
    }
  }

  showMemberError(memberId, message) {
    this.memberErrors.set(memberId, message);
    const row = this.members.querySelector(`[data-user-id="${CSS.escape(memberId)}"] .form-error`);
    if (row) row.textContent = message;
  }

  /** Asks before leaving (focus on Cancel, the safe answer), or stops asking. */
  confirmLeaving(ask, moveFocus = true) {
    this.leaveConfirmation.hidden = !ask;
    this.leaveButton.hidden = ask;
    this.leaveError.textContent = '';
    // On a phone the question opens at the foot of a long sheet: its buttons are brought on screen.
    if (ask) this.leaveConfirmation.scrollIntoView({ block: 'nearest' });
    if (moveFocus) focus(ask ? this.cancelLeave : this.leaveButton);
  }

  async leave() {
    const me = state.me?.id;
    const title = conversationTitle(state.conversations.get(this.id));
    if (!me) return;
    this.leaving = true;
    this.confirmLeave.disabled = true;
    try {
      await client.removeMember(this.id, me);
      this.close();
      announce(`You left “${title}”.`);
      goToList();
    } catch (error) {
      this.leaving = false;
      this.leaveError.textContent = error.message;
    } finally {
      this.confirmLeave.disabled = false;
    }
  }
}
