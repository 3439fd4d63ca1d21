"""Live editing on the screen: the editor in place of the instruction list, re-assembly on
a job thread, the panes following the new binary, diagnostics by line, validation, and
saving.

`e` opens the editor over the document's text, the cursor on the selected instruction's
line; the other panes stay and follow. Each edit goes to the session
(`spvinspect.editing`); one re-assembly job runs at a time and edits made meanwhile are
taken up by the next (a job whose text has been overtaken is not shown). A good
re-assembly becomes a new document (built on the job thread), which the screen swaps into
the panes, keeping the selection; the words that differ from the file as opened are
marked in the hex pane. While the text does not assemble the last good binary stays and
the diagnostics show at their line:col. The format's validator runs on a good binary once
the keys pause.

Saving (`ctrl+s`, `f12` for "save as") goes through `spvinspect.editing.saving`: atomic,
`FILE.bak` of what a save replaces, a question (overwrite / save elsewhere / cancel)
before writing over a file that changed on disk since it was opened or over another
existing file, and a message that keeps the edit when the write fails. The opened file
is watched (a `stat` a second): a change on disk is told at once, and `ctrl+r` reloads
it when there is no unsaved edit. `ask_before_quit` is the app's question when quitting
with unsaved changes.
"""

from __future__ import annotations

import time
import weakref
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual._context import NoActiveAppError
from textual.binding import Binding
from textual.content import Content

from spvinspect.responsive import last_input
from spvinspect.responsive.collector import keep_out, let_in
from spvinspect.responsive.jobs import JobThread
from spvinspect.screens.edit_dialogs import Question, SaveAs, SaveChoice
from spvinspect.widgets.border_text import set_border_title_alone
from spvinspect.widgets.hex_view import HexView

if TYPE_CHECKING:
    from spvinspect.editing.saving import SavedFile
    from spvinspect.editing.session import EditSession, ValidationJob
    from spvinspect.editing.validation import Validation
    from spvinspect.widgets.asm_editor import AsmEditor, EditorMessages

# The editor, its sessions and saving are imported when `e` first opens the editor (and
# Lima's codec only in Lima mode): start-up time that a user who only reads a module
# should not wait for. The screen handles the editor's messages by name
# (`on_asm_editor_closed`), not with `@on(AsmEditor.Closed)`, for the same reason.

EDIT_BINDINGS = [
    Binding("e", "edit", "Edit", show=False, id="edit.open",
            tooltip="Edit the module as assembly text (escape: back to the panes)"),
    Binding("ctrl+s", "save", "Save", show=False, id="edit.save",
            tooltip="Save the edited module over the file (FILE.bak keeps the original)"),
    Binding("f12", "save_as", "Save as", show=False, id="edit.save_as",
            tooltip="Save the edited module elsewhere: binary, assembly text (.spvasm), Lima raw stream or MBS"),
    Binding("ctrl+r", "reload", "Reload", show=False, id="edit.reload",
            tooltip="Open the file again as it is on disk now (when it changed and nothing is unsaved)"),
    Binding("f3", "compare_saved", "Compare", show=False, id="edit.compare",
            tooltip="The module as edited beside the file on disk, differences marked (f3 there: its .bak)"),
]
"""The editing keys, the same for every format (the screen's; its actions come here)."""

LONG_STEP_TITLE = " · assembling the whole module…"
"""What the editor's title adds while a job is in a long step."""
VALIDATE_AFTER = 0.6
"""Seconds without an edit before spirv-val runs on the binary on screen …"""
VALIDATE_AFTER_HUGE = 2.0
"""… and on a huge module, whose spirv-val run takes seconds of a core the keys need."""
TYPED_IN_EDITOR = frozenset({"search"})
"""The screen's priority actions whose keys the editor types instead."""
KEY_EDIT_WINDOW = 1.0
"""An edit this soon after a key is that key's (for `edit_latencies`)."""
SLOW_OPEN_BYTES = 1 << 20
"""Modules from this size on take a noticeable while to open in the editor: say so."""
TEXT_SUFFIXES = frozenset({".spvasm", ".asm", ".s", ".txt"})
"""Save-as names that get the assembly text rather than the binary."""
WATCH_EVERY = 1.0
"""Seconds between two looks (a `stat`) at the opened file, for changes made on disk."""


class EditingController:
    """Live editing for the screen (see the module's docstring). What differs by format
    comes from the document (`spvinspect.formats.Format`: its edit session, edited
    documents, save kinds, validation) and from the screen's view (`editor_line`,
    `follow_editor_line`, `build_index`); the screen shows an edited document."""

    edit_session: EditSession | None = None
    """The editing session, once `e` has opened it."""
    saved_file: SavedFile | None = None
    """The opened file, as saving over it goes."""

    def __init__(self, screen: Any) -> None:
        self._screen = screen
        self.edit_latencies: list[float] = []
        """Seconds from each edit's key to the panes painted with its binary (or its errors)."""
        self._edited_at: dict[int, float] = {}
        self._validating = False
        self._validation_timer = None
        self._told_validation_off = False
        self._jobs: JobThread | None = None
        self._validator: JobThread | None = None
        self.index_stale = False
        """True when the document changed since the whole-module index was asked for."""
        self._editor: AsmEditor | None = None
        self._editor_messages: EditorMessages | None = None
        self._shown_text = None
        """How the editor shows the session's text (`spvinspect.editing.shown_text`)."""
        self._editor_outdated = False
        """The editor shows a dropped session's text (`drop_edit_session`)."""
        self._follow_pending: int | None = None
        """The editor's line the panes are to follow once the editor is painted."""
        self._long_step: weakref.ref[EditSession] | None = None
        """The session whose job is in a long step (a whole assembly) until its outcome
        comes, weakly (a session left is freed at once): the editor's title says so
        whatever else redraws it meanwhile."""
        self._saved_text: str | None = None
        """The text as saved, until the editor's comment refresh after a save reaches the
        session (which then counts as saved)."""

    def mount(self) -> None:
        """Remember the opened file as it is on disk, and watch it for changes."""
        from spvinspect.editing.opened_file import SavedFile

        path = self._opened_path()
        if path is not None and path.is_file():
            self.saved_file = SavedFile.opened(path, self._screen.document.data)
            self._screen.set_interval(WATCH_EVERY, self._watch_disk)

    def _opened_path(self) -> Path | None:
        return self._screen.document.file_path

    def typed_in_editor(self, action: str) -> bool:
        """Keys the screen takes before the focused widget (search's `/`) are typed
        into the editor while it has the focus."""
        editor = self.editor
        return action in TYPED_IN_EDITOR and editor is not None and editor.has_focus

    # -- opening and closing the editor ------------------------------------------

    @property
    def editor(self) -> AsmEditor | None:
        """The editor, once opened."""
        return self._editor

    def action_edit(self) -> None:
        """Open the editor (preparing the session in a worker the first time)."""
        session = self.edit_session
        if session is None:
            # Weakly: Textual's context keeps a finished worker (with what it was given) for
            # as long as the timers started from its callbacks, the editor's among them.
            opening = partial(self._open_session, weakref.ref(self._screen.document))
            self._screen.view.pause_background(True)
            # A description, or Textual describes the worker by repr(): of the whole document.
            self._screen.run_worker(opening, thread=True, exclusive=True, group="edit-open",
                                    description="open the editor")
        elif session.partial and self._outside(session):
            self._move_region(session)
        else:
            self._show_editor()

    def _outside(self, session) -> bool:
        """True when the selection is outside the part of the module the text holds."""
        selection = self._screen.selection
        return selection is not None and session.line_of(selection.word) is None

    def _move_region(self, session) -> None:
        """Edit the region around the selection instead: a new session over the module
        as edited (the file's bytes kept), once the region's text has assembled."""
        if session.busy or not session.assembles:
            self._screen.notify("This region's text does not assemble yet: the editor stays on it until it does "
                                "(fix it, or undo)", severity="warning", timeout=6)
            self._show_editor()
            return
        opening = partial(self._open_session, weakref.ref(self._screen.document), weakref.ref(session))
        self._screen.view.pause_background(True)
        # A description, or Textual describes the worker by repr(): of the session's whole state.
        self._screen.run_worker(opening, thread=True, exclusive=True, group="edit-open",
                                description="move the editor's region")

    def _open_session(self, document_ref, continuing_ref=None) -> None:
        """The session, and its first assembly when the editor needs it to place lines (a
        whole text's: seconds on a huge module). A session over a part of a big module
        shows at once: its first job runs after, like any other. The view's background
        work rests meanwhile, until the editor is on screen (`_opened`). The document (and
        the session continued) come by weak reference: nothing to open once they are gone."""
        document = document_ref()
        continuing = continuing_ref() if continuing_ref is not None else None
        try:
            if document is None or (continuing_ref is not None and continuing is None):
                self._on_ui(self._screen.view.pause_background, False)
                return
            self._make_session(document, continuing)
        except BaseException:
            self._on_ui(self._screen.view.pause_background, False)
            raise

    def _make_session(self, document, continuing) -> None:
        selection = self._screen.selection
        if continuing is not None:
            session = document.open_edit_session(selection.instruction if selection is not None else None, continuing)
        else:
            session = self.new_edit_session(document)
        outcome = None
        if not session.partial:
            if len(document.data) > SLOW_OPEN_BYTES:
                self._on_ui(self._screen.notify, "Preparing the editor: the whole module's "
                                                  "text and its first assembly…", timeout=4)
            job = session.request()
            outcome = job.run() if job is not None else None
        self._on_ui(self._session_ready, session, outcome, continuing is not None)

    def new_edit_session(self, document):
        """The session `e` opens over `document` (on a worker thread): the view's choice
        (`FormatView.new_edit_session`: the document's own, or in the syntax shown)."""
        return self._screen.view.new_edit_session(document)

    def drop_edit_session(self) -> None:
        """Forget the session while the editor is hidden (it holds nothing unsaved): the
        next `e` opens a new one over the document on screen, and the editor shows its text."""
        self._stop_jobs()
        self.edit_session = None
        self._editor_outdated = True

    def _stop_jobs(self) -> None:
        """Stop the assembly and validation threads, and a spirv-val still running (seconds
        of a core on a huge module, beside the next session's); the next job starts new ones."""
        from spvinspect.editing.validation import stop_validators

        for thread in (self._jobs, self._validator):
            if thread is not None:
                thread.stop()
        if self._validating:
            stop_validators()
        self._jobs = self._validator = None
        self._validating = False

    def _session_ready(self, session: EditSession, outcome, moved: bool = False) -> None:
        from spvinspect.editing.shown_text import ShownText

        if outcome is not None:
            session.accept(outcome)
        if moved:
            self.drop_edit_session()
        self.edit_session = session
        app = self._screen.app
        # Weakly: the assembler holds what it calls, and a session in a cycle with it
        # outlived the region left (its module and states) until an idle collection.
        told = weakref.ref(session)
        session.tell_long_steps(lambda text: self._on_ui(self._long_step_began, told(), text))
        self._shown_text = ShownText.for_lines(session.lines)
        self._freeze()
        self._show_editor()
        self._show_messages()
        if self._shown_text.note:
            self._screen.notify(self._shown_text.note, timeout=8)
        # Once the editor is on screen with its cursor placed (after `_place_cursor`).
        self._screen.call_after_refresh(self.editor.after_paint, self._opened)

    def _opened(self) -> None:
        """The editor is on screen: a part's first job, and the view's background work, go on."""
        self._screen.view.pause_background(False)
        self._assemble_next()

    def _long_step_began(self, session: EditSession, text: str) -> None:
        """A job began a long step (a whole assembly): the user is told, and the editor's
        title says so until the outcome is shown."""
        if session is None or session is not self.edit_session:
            return
        self._long_step = weakref.ref(session)
        self._screen.notify(text, timeout=8)
        editor = self.editor
        if editor is not None:
            editor.border_title = Content(self._title(session) + LONG_STEP_TITLE)

    def _title(self, session: EditSession) -> str:
        return f"Editing · {getattr(self._screen.document, 'name', '')}" + (" ●" if session.modified else "")

    def _show_editor(self) -> None:
        session = self.edit_session
        assert session is not None
        line = self._screen.view.editor_line(session)
        start, end = session.window(line)
        text = self._shown_text.to_editor("\n".join(session.lines[start:end]))
        editor = self.editor
        listing = self._screen.query_one("#list")
        if editor is None:
            from spvinspect.widgets.asm_editor import AsmEditor, EditorMessages

            language = self._screen.document.editor_language()
            editor = self._editor = AsmEditor(text, syntax=language, first_line=start,
                                              lines_before=session.lines_before, id="editor")
            editor.border_title = Content(f"Editing · {getattr(self._screen.document, 'name', '')}")
            messages = self._editor_messages = EditorMessages(id="edit-messages")
            messages.display = False
            listing.parent.mount(editor, messages, after=listing)
            self._screen.call_after_refresh(self._place_cursor, line)
        elif self._editor_outdated or not editor.first_line <= line < editor.first_line + editor.document.line_count:
            # A new session's text, or a huge module's window moved.
            editor.load_window(text, start, line, session.lines_before)
        else:
            self._place_cursor(line)
        self._editor_outdated = False
        listing.display = False
        editor.display = True
        self._editor_messages.display = bool(session.messages())
        editor.focus()
        self._show_messages()

    def _place_cursor(self, line: int) -> None:
        editor = self.editor
        if editor is not None:
            editor.move_cursor((max(0, line - editor.first_line), 0), center=True)

    def closed(self, message: AsmEditor.Closed) -> None:
        """The editor closed (escape): back to the list, on the editor's line."""
        self._follow_pending = None
        self._follow_line(message.line)
        listing = self._screen.query_one("#list")
        message.editor.display = False
        self._editor_messages.display = False
        listing.display = True
        listing.focus()
        let_in((self, "editor"))
        if self.index_stale:
            self.index_stale = False
            self._screen.view.build_index()

    def cursor_line_changed(self, message: AsmEditor.CursorLineChanged) -> None:
        """The editor's cursor moved to another line: the panes follow once a frame has
        shown the editor there (a page key's page is not held up by the panes), once for
        all the moves made by then (of the last)."""
        waiting = self._follow_pending is not None
        self._follow_pending = message.line
        if not waiting:
            message.editor.after_paint(self._follow_now)

    def _follow_now(self) -> None:
        line, self._follow_pending = self._follow_pending, None
        if line is not None:
            self._follow_line(line)

    def _follow_line(self, line: int) -> None:
        """Select the instruction on the editor's line in the panes."""
        if self.edit_session is not None:
            selection = self._screen.view.editor_selection(self.edit_session, line)
            if selection is not None:
                self._screen.select(selection)

    def editor_cursor_line(self) -> int | None:
        """The whole text's line of the editor's cursor, while the editor is shown."""
        editor = self.editor
        if editor is None or not editor.display:
            return None
        return editor.first_line + editor.cursor_location[0]

    def message_chosen(self, message: EditorMessages.Chosen) -> None:
        """A diagnostic chosen under the editor: the cursor goes to its line:col."""
        editor = self.editor
        if editor is not None:
            row = message.line - editor.first_line
            if 0 <= row < editor.document.line_count:
                editor.move_cursor((row, message.column), center=True)
            editor.focus()

    # -- edits and re-assembly ---------------------------------------------------------

    def text_edited(self, message: AsmEditor.TextEdited) -> None:
        """An edit: into the session, and re-assembled."""
        session = self.edit_session
        if session is None:
            return
        generation = session.replace_lines(message.start, message.end, self._shown_text.from_editor(message.lines))
        if self._saved_text is not None:
            if session.text == self._saved_text:
                session.mark_saved()
            self._saved_text = None
        # From the key that made the edit (the app notes when each input event came).
        now = time.monotonic()
        key = last_input(self._screen.app)
        self._edited_at[generation] = key if now - key < KEY_EDIT_WINDOW else now
        if self._validation_timer is not None:
            self._validation_timer.stop()
            self._validation_timer = None
        self._assemble_next()

    def _assemble_next(self) -> None:
        """Start the next job, unless one runs or the newest text is assembled."""
        session = self.edit_session
        job = session.request() if session is not None else None
        if job is not None:
            if self._jobs is None:
                self._jobs = JobThread("spvinspect-assembly", self._job_failed)
            self._jobs.submit(lambda: self._run_job(job, session))

    def _job_failed(self, error: BaseException) -> None:
        """A job raised (a bug): say so in words, and let the next edit try again."""
        from spvinspect.editing.session import AssemblyOutcome

        def report() -> None:
            if self.edit_session is not None:
                self.edit_session.accept(AssemblyOutcome(-1, None, []))
            self._screen.notify(f"re-assembly failed: {type(error).__name__}: {error}", severity="error", timeout=10)
        self._on_ui(report)

    def _on_ui(self, callback, *args, **kwargs) -> None:
        """Run `callback` on the UI thread (from a job thread); nothing when the app closed
        while the job ran: there is no one left to tell."""
        try:
            self._screen.app.call_from_thread(callback, *args, **kwargs)
        except (NoActiveAppError, RuntimeError):
            pass

    def unmount(self) -> None:
        """Stop the job threads (the screen goes)."""
        self._stop_jobs()
        let_in((self, "editor"))

    def _run_job(self, job, session) -> None:
        """Re-assemble, and for a good binary of the newest text, its document (both on
        the job thread)."""
        outcome = job.run(session.cancelled(job.generation))
        document = None
        if outcome.generation == session.generation:
            document = self.edited_document(session, outcome)
        self._on_ui(self._assembled, session, outcome, document)

    def edited_document(self, session, outcome):
        """The document the panes show for a job's good binary, or None (on the job thread)."""
        return self._screen.document.edited(session, outcome)

    def _assembled(self, session, outcome, document) -> None:
        if session is not self.edit_session:
            return
        self._long_step = None
        if session.accept(outcome):
            if document is not None:
                self.index_stale = True
                self._screen.show_edited_document(document)
                self.mark_changed_words(session.changed)
                self._freeze()
            self._show_messages()
            self._screen.call_after_refresh(self._shown, outcome.generation)
            if session.validates and session.good is not None:
                pause = VALIDATE_AFTER_HUGE if session.huge else VALIDATE_AFTER
                self._validation_timer = self._screen.set_timer(pause, self._validate)
        self._assemble_next()

    def _freeze(self) -> None:
        """Leave what lives now out of the cyclic collector while the editor is open: the
        session's text and tables, and each document, are millions of long-lived objects
        whose full collections would otherwise pause every few keystrokes on a large module."""
        keep_out((self, "editor"))

    def _shown(self, generation: int) -> None:
        """The panes have been painted with the binary (or the errors) of `generation`."""
        now = time.monotonic()
        for edited in [g for g in self._edited_at if g <= generation]:
            self.edit_latencies.append(now - self._edited_at.pop(edited))

    def mark_changed_words(self, changed) -> None:
        """Mark the words changed since the file was opened in the hex pane."""
        changed = self._screen.document.changed_cells(changed)
        hex_view = self._screen.query_one(HexView)
        if hex_view.changed != changed:
            hex_view.mark_changed(changed)

    # -- messages and validation -----------------------------------------------------

    def _show_messages(self) -> None:
        session = self.edit_session
        editor = self.editor
        if session is None or editor is None:
            return
        messages = session.messages()
        editor.show_messages(messages)
        listed = self._editor_messages
        listed.show_messages(messages, session.lines_before)
        shown = editor.display and bool(messages)
        if listed.display != shown:
            listed.display = shown
        if self._long_step is not None and self._long_step() is session:
            state = LONG_STEP_TITLE
        else:
            state = "" if session.assembles else " · does not assemble: the last good binary is shown"
        set_border_title_alone(editor, self._title(session) + state)

    def _validate(self) -> None:
        """spirv-val on the binary on screen, one run at a time."""
        self._validation_timer = None
        session = self.edit_session
        if self._validating or session is None or not session.validates:
            return
        job = session.validation_job()
        if job is not None:
            self._validating = True
            if self._validator is None:
                self._validator = JobThread("spvinspect-validation", self._validation_failed)
            self._validator.submit(lambda: self._run_validation(job, session))

    def _run_validation(self, job: ValidationJob, session: EditSession) -> None:
        """spirv-val, on its own thread (a run takes seconds on a huge module)."""
        validation = job.run()
        self._on_ui(self._validated, session, job, validation)

    def _validation_failed(self, error: BaseException) -> None:
        from spvinspect.editing.validation import Validation

        self._on_ui(self._validated, self.edit_session, None, Validation(
            unavailable=f"validation is off: {type(error).__name__}: {error}"))

    def _validated(self, session: EditSession, job: ValidationJob | None, validation: Validation) -> None:
        self._validating = False
        if session is not self.edit_session:
            return
        if job is None or session.accept_validation(job, validation):
            if validation.unavailable and not self._told_validation_off:
                self._told_validation_off = True
                self._screen.notify(validation.unavailable, severity="warning", timeout=6)
            self._show_messages()
        elif not session.busy:
            self._validate()

    # -- saving ----------------------------------------------------------------------

    @property
    def unsaved(self) -> bool:
        """True when the text differs from the file."""
        return self.edit_session is not None and self.edit_session.modified

    def action_save(self) -> None:
        """Save the edited module over the opened file (save as when there is none)."""
        if self.edit_session is None:
            self._screen.notify("Nothing edited: e opens the editor", timeout=3)
        elif self.saved_file is None:
            self.action_save_as()
        elif not self.unsaved and not self.saved_file.changed_on_disk():
            self._screen.notify("Nothing to save: the text is as the file holds it", timeout=3)
        else:
            self._save(None)

    def action_save_as(self) -> None:
        """Ask where to save (binary, assembly text, Lima raw stream or MBS)."""
        if self.edit_session is None:
            self._screen.notify("Nothing edited: e opens the editor", timeout=3)
            return
        kinds = self._screen.document.SAVE_KINDS
        suggested = str(self.saved_file.path) if self.saved_file is not None else ""
        self._screen.app.push_screen(SaveAs(suggested, kinds), lambda path: path and self._save(Path(path)))

    def _save(self, path: Path | None, overwrite: bool = False) -> None:
        from spvinspect.editing.saving import NeedsAnswer, SavedFile, SaveError, describe_failure

        session = self.edit_session
        file = self.saved_file or SavedFile(path, new=True)
        try:
            written = self._write(session, file, path, overwrite)
        except NeedsAnswer as ask:
            self._screen.app.push_screen(SaveChoice(ask.question), lambda choice: self._answered(choice, path))
            return
        except SaveError as error:
            self._screen.notify(str(error), severity="error", timeout=10)
            return
        except Exception as error:  # noqa: BLE001 - a bug in saving is a message; the edit stays
            self._screen.notify(describe_failure(error), severity="error", timeout=10)
            return
        if self.saved_file is None:
            self.saved_file = file
        self._screen.notify(f"Saved {written}", timeout=3)
        if self.editor is not None:
            self.editor.history.checkpoint()  # undo stops at the text as saved
        self._refresh_file_comments(written)
        self._show_messages()

    def _refresh_file_comments(self, written: Path) -> None:
        """After a save, the editor's top comments describe the file written (a Lima MBS
        container's sizes), when the format's assembler says they changed."""
        session, editor = self.edit_session, self.editor
        refresh = session.comments_after_save(written)
        if refresh is None or editor is None:
            return
        count, comments = refresh
        lines = list(session.lines)
        lines[:count] = comments
        self._saved_text = "\n".join(lines) if not session.modified else None
        editor.replace("\n".join(comments), (0, 0), (count - 1, len(session.lines[count - 1])), maintain_selection_offset=True)

    def _answered(self, choice: str | None, path: Path | None) -> None:
        """Act on the answer to "overwrite / save elsewhere / cancel"."""
        if choice == "overwrite":
            self._save(path, True)
        elif choice == "elsewhere":
            self.action_save_as()
        else:
            self._screen.notify("Not saved: the edit is still in memory", timeout=3)

    def _write(self, session, file: SavedFile, path: Path | None, overwrite: bool) -> Path:
        """Write what `path`'s name asks for; marks the session saved over its own file."""
        from spvinspect.editing.saving import save_assembly

        if path is not None and path.suffix.lower() in TEXT_SUFFIXES:
            return save_assembly(session, file, path, overwrite=overwrite)
        return self._screen.document.save_edit(session, file, path, overwrite=overwrite)

    # -- the file on disk ----------------------------------------------------------

    def _watch_disk(self) -> None:
        """Tell the user at once when the opened file changes on disk."""
        file = self.saved_file
        if file is None or not file.poll():
            return
        if self.unsaved:
            self._screen.notify(f"{file.path} changed on disk. The edit is not saved: ctrl+s asks before "
                        f"overwriting it, f12 saves elsewhere", severity="warning", timeout=10)
        else:
            self._screen.notify(f"{file.path} changed on disk: ctrl+r reloads it", severity="warning", timeout=10)

    def action_reload(self) -> None:
        """Open the file again as it is on disk now (not over unsaved edits)."""
        from spvinspect.editing.reload import reopened

        file = self.saved_file
        if file is None:
            self._screen.notify("Nothing to reload: the module was not opened from a file", timeout=3)
        elif self.unsaved:
            self._screen.notify("Not reloaded: the edit is not saved (ctrl+s or f12 saves it, ctrl+z undoes it)",
                        severity="warning", timeout=6)
        elif not file.changed_on_disk():
            self._screen.notify(f"{file.path} is as it was opened: nothing to reload", timeout=3)
        else:
            document, problem = reopened(self._screen.document, file.path)
            if document is None:
                self._screen.notify(problem, severity="error", timeout=8)
                return
            self._reload(document)
            self._screen.notify(f"Reloaded {file.path}", timeout=3)

    def _reload(self, document) -> None:
        """The panes over the file's new bytes, as if just opened: the editor closed (it
        had nothing unsaved), its session dropped, the file watched from these bytes."""
        from spvinspect.editing.changes import ChangedWords
        from spvinspect.editing.opened_file import SavedFile

        self._stop_jobs()
        self._screen.view.pause_background(False)  # if the editor went before it was painted
        editor = self._editor
        if editor is not None:
            editor.remove()
            self._editor_messages.remove()
            self._editor = self._editor_messages = None
            self._follow_pending = None
            listing = self._screen.query_one("#list")
            listing.display = True
            listing.focus()
            let_in((self, "editor"))
        self._screen.show_edited_document(document)
        self.edit_session = None
        self.mark_changed_words(ChangedWords())
        self.saved_file = SavedFile.opened(self.saved_file.path, document.data)
        self.index_stale = False
        self._screen.view.build_index()

    # -- comparing with the file -------------------------------------------------------

    def action_compare_saved(self) -> None:
        """Open the side-by-side comparison of the module as it is now (edited) with the
        file on disk, and with its `.bak` when there is one."""
        from spvinspect.screens.diff import DiffScreen

        path = self._opened_path()
        if path is None:
            self._screen.notify("Nothing to compare with: the module was not opened from a file", severity="warning")
            return
        choices = []
        for label, candidate in (("on disk", path), ("kept before the first save", path.with_name(path.name + ".bak"))):
            try:
                data = candidate.read_bytes() if candidate.is_file() else None
            except OSError as error:
                self._screen.notify(f"{candidate}: cannot be read: {error.strerror or error}", severity="warning", markup=False)
                continue
            if data is not None:
                names = (f"{candidate.name} ({label})", f"{path.name} as edited")
                choices.append((f"{names[0]} ⇄ {names[1]}", self._screen.document.compared_with((data, str(candidate)), names)))
        if not choices:
            self._screen.notify(f"Nothing to compare with: {path} is not on disk", severity="warning", markup=False)
            return
        self._screen.app.push_screen(DiffScreen(choices, closable=True))

    def ask_before_quit(self) -> bool:
        """With unsaved changes, ask whether to quit (and quit on yes); True when asking."""
        if not self.unsaved:
            return False
        self._screen.app.push_screen(
            Question("The edit is not saved. Quit and lose it? (ctrl+s saves it first)", "Quit"),
            lambda yes: yes and self._screen.app.exit(),
        )
        return True
