;;; eglot_driver.el --- headless Emacs + eglot driver for tests/editors/test_emacs.py  -*- lexical-binding: t -*-

;; emacs --batch -l eglot_driver.el
;;
;; Run without -Q so that Debian's site-start puts elpa-eglot on the load path, as it does
;; for a person.  Environment: RULELENS_PROJECT (the project root), RULELENS_RESULT (where
;; to write the JSON).  The eglot setup below is the one docs/emacs.md recommends.

(require 'eglot)
(require 'flymake)
(require 'json)
(require 'cl-lib)
(require 'seq)

(defvar rl-root (file-name-as-directory (getenv "RULELENS_PROJECT")))
(defvar rl-result (getenv "RULELENS_RESULT"))
(defvar rl-out nil "Alist written as the result.")

;; --- the configuration from docs/emacs.md ---------------------------------------------
;; Emacs 28 has no php-mode; .php files open in fundamental-mode here.
(add-to-list 'eglot-server-programs
             '((php-mode fundamental-mode markdown-mode text-mode) . ("rulelens" "serve")))
;; ---------------------------------------------------------------------------------------

(defun rl-put (key value)
  (setq rl-out (cons (cons key value) rl-out)))

(defun rl-wait (what predicate)
  (let ((deadline (+ (float-time) 60)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall predicate)
      (error "timed out waiting for %s" what))))

(defun rl-diagnostics ()
  (mapcar (lambda (d)
            (let ((beg (flymake-diagnostic-beg d)))
              `((text . ,(flymake-diagnostic-text d))
                (type . ,(symbol-name (flymake-diagnostic-type d)))
                (line . ,(1- (line-number-at-pos beg)))
                (column . ,(save-excursion (goto-char beg) (current-column))))))
          (flymake-diagnostics)))

(defun rl-hover ()
  "What eglot's eldoc hover function hands to eldoc at point."
  (let (info)
    (eglot-hover-eldoc-function (lambda (text &rest _) (setq info (or text ""))))
    (rl-wait "the hover" (lambda () info))
    (substring-no-properties info)))

(defun rl-record ()
  "Pick the record action in `eglot-code-actions' as a person would; eglot cannot prompt
for a title and note, so the server's action is an edit that adds an entry skeleton."
  (let ((titles nil)
        (last-nonmenu-event 13))        ; a key, not a mouse event: use completing-read
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt items &rest _)
                 (setq titles (mapcar #'car items))
                 (seq-find (lambda (title) (string-suffix-p "app/Models/*.php" title))
                           titles)))
              ((symbol-function 'y-or-n-p) (lambda (&rest _) t)))
      (eglot-code-actions (point-min) (point-min) nil t))
    (rl-put 'action_titles titles)
    (let ((buf (find-buffer-visiting (expand-file-name ".ai/rules/models.md" rl-root))))
      (rl-put 'skeleton (and buf (with-current-buffer buf
                                   (buffer-substring-no-properties (point-min) (point-max))))))))

(defun rl-run ()
  (find-file (expand-file-name "app/Models/User.php" rl-root))
  (rl-put 'major_mode (symbol-name major-mode))
  (apply #'eglot (eglot--guess-contact))
  (rl-wait "eglot to connect" (lambda () (and (eglot-current-server) eglot--managed-mode)))
  (rl-put 'server (jsonrpc-name (eglot-current-server)))
  (flymake-start)
  (rl-wait "the rules diagnostic"
           (lambda () (flymake-start) (flymake-diagnostics)))
  (rl-put 'diagnostics (rl-diagnostics))
  (goto-char (point-min))
  (rl-put 'hover (rl-hover))
  (rl-record))

(let ((err nil))
  (condition-case e
      (rl-run)
    (error (setq err (error-message-string e))))
  (when err (rl-put 'error err))
  (with-temp-file rl-result
    (setq buffer-file-coding-system 'utf-8)
    (insert (json-encode rl-out)))
  (kill-emacs 0))

;;; eglot_driver.el ends here
