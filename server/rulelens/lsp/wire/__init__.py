"""What goes over the wire: the payloads of rulelens's own methods, positions in the negotiated
encoding, workspace edits, Markdown made safe, and the handler wrappers (a failing handler is
logged, a malformed request still answered). Nothing here holds state."""
