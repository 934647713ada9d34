"""Tic-Tac-Toe: a whole game to a win, both players moving from the message bubble."""

import pytest


def play(person, square_label, caption):
    """Taps the game's newest bubble, plays a square, and sends the move."""
    person.tap_card("")  # the newest app message: the game's only bubble
    person.wait_for_surface("Tic-Tac-Toe", style="expanded")
    person.wait_for_node_text("status", "It's your move!")
    person.press_in_app(square_label)
    person.wait_surface_closed()
    person.wait_for_staged(caption)
    person.send()


@pytest.mark.flow
def test_a_game_is_played_to_a_win_from_the_bubble(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")

    # Alice starts from the drawer: the app opens compact, in the keyboard's place.
    alice.open_app("Tic-Tac-Toe")
    surface = alice.wait_for_surface("Tic-Tac-Toe", style="compact")
    assert "You play X" in alice.surface_text()
    # The whole board fits the compact tray (at this 720-pixel-high window too): no row is cut off.
    cut_off = alice.js("""
        const body = document.querySelector('.surface .surface-body').getBoundingClientRect();
        return [...document.querySelectorAll('.surface .vt-button-square')]
            .filter(b => b.getBoundingClientRect().bottom > body.bottom + 0.5).length;
    """)
    assert cut_off == 0, f"{cut_off} squares are below the tray's bottom edge"
    alice.shot("game-opened-compact")
    alice.press_in_app("Row 1, column 1, empty")
    alice.wait_surface_closed()
    alice.wait_for_staged("Want to play Tic-Tac-Toe?")
    alice.shot("first-move-staged")
    alice.send()
    alice.wait(lambda: alice.staged() is None, "the compose field to empty after sending")
    alice.wait_for_card("Want to play Tic-Tac-Toe?")

    # Bob answers from the bubble: it opens the game expanded, on that move.
    bob.wait_for_card("Want to play Tic-Tac-Toe?")
    bob.shot("invitation-received")
    bob.tap_card("Want to play Tic-Tac-Toe?")
    bob.wait_for_surface("Tic-Tac-Toe", style="expanded")
    bob.wait_for_node_text("status", "Tap a square to play O against Alice")
    bob.shot("board-expanded")
    bob.press_in_app("Row 2, column 1, empty")
    bob.wait_surface_closed()
    bob.wait_for_staged("It's your move!")
    bob.send()

    alice.wait(lambda: len(alice.summary_lines()) == 1, "the first move to leave its summary line")
    play(alice, "Row 1, column 2, empty", "It's your move!")
    bob.wait(lambda: len(bob.summary_lines()) == 2, "Alice's second move")
    play(bob, "Row 2, column 2, empty", "It's your move!")
    alice.wait(lambda: len(alice.summary_lines()) == 3, "Bob's second move")
    play(alice, "Row 1, column 3, empty", "Alice won!")

    for person in (alice, bob):
        person.wait_for_card("Alice won!", "the winning bubble")
        # One session, one bubble: the older moves left their summary lines.
        person.wait(lambda p=person: len(p.app_cards()) == 1, "the game to be one bubble")
        lines = person.summary_lines()
        assert lines == [
            "Alice played the top-left square",
            "Bob played the middle-left square",
            "Alice played the top-middle square",
            "Bob played the center",
        ], lines
        person.shot("game-won")

    # The winner's board, opened from the bubble, says who won and offers a rematch.
    bob.tap_card("Alice won!")
    bob.wait_for_surface("Tic-Tac-Toe", style="expanded")
    bob.wait_for_node_text("status", "Alice won!")
    assert bob.button("Rematch", bob.surface()) is not None
    # The expand/collapse control switches styles.
    bob.press_in_app("Collapse Tic-Tac-Toe")
    bob.wait_for_surface("Tic-Tac-Toe", style="compact")
    bob.press_in_app("Expand Tic-Tac-Toe")
    bob.wait_for_surface("Tic-Tac-Toe", style="expanded")
    bob.shot("finished-board")
    bob.press_in_app("Close Tic-Tac-Toe")
    bob.wait_surface_closed()
