"""What goes over the wire: the payloads of rulelens's own methods, positions in the negotiated
encoding, workspace edits, Markdown made safe, and the handler wrappers (a failing handler is
logged, a malformed request still answered). Nothing here holds state but `compiled`, the code
attrs and cattrs generate for the protocol's classes, kept between starts as bytecode is."""
