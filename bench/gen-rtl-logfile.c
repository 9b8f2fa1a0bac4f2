/* gen-rtl-logfile.c — writes constructed OpenOffice RTL profiling logs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §2.2 (header and close lines), §2.3 (record prefix
 * and time base), §2.4 (what each macro writes), §2.5 (interleaving and
 * truncation), §3 (grammar), §6 (example file), §7 (malformed inputs, for
 * --faults).
 *
 * The output imitates what the sal library writes when RTL_LOGFILE is set:
 * the three header lines, then the records of several threads of one
 * process interleaved through the writer's mutex, then the close line
 * without a newline. Every thread runs nested scopes (`{ N` … `} N`) named
 * `module (author) ::Namespace::Class::Function` from a fixed vocabulary,
 * plus free-text PERFORMANCE contexts, messages attached to open scopes
 * (`| N : text`), logical scopes (`| N : { phase` … `| N : } phase`) and
 * context-free messages (`| : text`). The main thread runs inside
 * Desktop::Main for the whole file; worker threads run tasks with idle time
 * between them. Times are the process timer's milliseconds, never
 * decreasing within a thread; the time of a record is taken before the
 * mutex, so records of different threads may be a few ms out of order.
 *
 * Used for the parsing benchmark (bench/run-rtl-bench, sizes of hundreds of
 * MiB) and for the demo log (bench/make-demo-logs). The output depends only
 * on the options: the random numbers come from our own generator, never
 * from rand (), and the vocabulary and its timings are fixed.
 */
#include "gen-common.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define RECORD_BUFFER_SIZE 4096u     /* the writer's format buffer (§2.5) */
#define MAX_THREADS        1000
#define MAX_MAX_DEPTH      1000
#define NO_SLOT            G_MAXUINT
#define ENDLESS            (G_MAXUINT - 1)  /* children of Desktop::Main */

/* Upper bound of a record prefix: ten time digits, a thread id, spaces */
#define MAX_TIME_DIGITS    10
#define CLOSE_LINE_RESERVE (sizeof "closing log file at " - 1 + MAX_TIME_DIGITS)

/* --faults: each kind first shows up within the first FIRST_FAULT_MAX
 * records, so that even a demo file of a few thousand records has all of
 * them, then about once every FAULT_GAP_MIN…FAULT_GAP_MAX records. */
#define FIRST_FAULT_MIN    40
#define FIRST_FAULT_MAX    1500
#define FAULT_GAP_MIN      12000
#define FAULT_GAP_MAX      40000

/* Log-normal around a median, in whole microseconds */
static inline uint64_t
rng_lognormal_us (Rng    *rng,
                  double  median_us,
                  double  sigma)
{
  return (uint64_t) rng_lognormal (rng, median_us, sigma);
}

/* ------------------------------------------------------------------------ */
/* The vocabulary                                                            */

typedef enum
{
  ROLE_ROOT,          /* the main thread's outermost scope, Desktop::Main */
  ROLE_MAIN_TASK,     /* what the main thread does between two events */
  ROLE_WORKER_TASK,   /* what a worker thread runs */
  ROLE_INNER,         /* calls others, a few levels deep */
  ROLE_LEAF,          /* rarely calls anything */
  ROLE_RECURSIVE,     /* layout, formula and XML-context recursion: the
                         deep chains */
  N_ROLES
} Role;

typedef struct
{
  const char *name;
  const char *authors[3];   /* NULL: free-text names (PERFORMANCE …) */
  const char *callees;      /* modules it calls, "|"-separated */
  const char *messages;     /* message templates, "|"-separated; %u is a
                               number, %s a document URL */
} ModuleDef;

/* Author ids are made up, in the 8-character style of the OpenOffice.org
 * sources; the first one of a module is the one of the §6 example. */
static const ModuleDef module_defs[] = {
  { "desktop", { "ab123456", "lo204412" },
    "sfx2|framework|configmgr|ucb|vcl|comphelper|svtools",
    "splash screen shown|arguments: %u|first start: no|restarting: no|extensions checked: %u" },
  { "sfx2", { "mb217390", "as108834", "pb286091" },
    "framework|svtools|vcl|ucb|comphelper|unotools|sw|sc|sd|package",
    "filter: writer8|filter: calc8|filter: impress8|filter: MS Word 97|documents: %u|medium: %s|slots invalidated: %u" },
  { "framework", { "as150012", "cd631377" },
    "sfx2|vcl|configmgr|ucb|svtools|comphelper",
    "dispatch: .uno:Open|dispatch: .uno:Save|url: private:factory/swriter|frames: %u|toolbars created: %u|url: %s" },
  { "sw", { "ef112233", "os427190", "jp360714" },
    "xmloff|svx|vcl|svtools|ucb|i18npool|linguistic|unotools|comphelper|editeng|sfx2",
    "pages formatted: %u|paragraphs: %u|styles imported: %u|layout frames: %u|fields updated: %u|tables: %u|words counted: %u" },
  { "sc", { "nn215560", "er308842", "dr100932" },
    "xmloff|svx|vcl|svtools|i18npool|unotools|comphelper|basic|oox|chart2",
    "rows read: %u|cells calculated: %u|formula cells: %u|sheets: %u|columns: %u|named ranges: %u" },
  { "sd", { "ka261934", "cl417733" },
    "xmloff|svx|vcl|svtools|comphelper|sfx2|editeng",
    "slides: %u|shapes created: %u|master pages: %u|previews rendered: %u" },
  { "xmloff", { "gh445566", "mi213377", "sb409521" },
    "package|comphelper|unotools|svx|i18npool",
    "elements: %u|styles: %u|stream: content.xml|stream: styles.xml|stream: meta.xml|attributes: %u|auto styles: %u" },
  { "ucb", { "kl001122", "ks311845" },
    "package|comphelper|configmgr|unotools",
    "loading \"%s\"|content provider: vnd.sun.star.pkg|content provider: file|bytes read: %u|url: %s|providers registered: %u" },
  { "configmgr", { "ij778899", "jb105630" },
    "comphelper|unotools",
    "component: org.openoffice.Office.Common|component: org.openoffice.Setup|nodes read: %u|layer: share|layer: user|modifications: %u" },
  { "svtools", { "mn334455", "fs230751" },
    "vcl|unotools|comphelper|configmgr",
    "thumbnails: %u|items: %u|graphics imported: %u|cache size: %u" },
  { "vcl", { "pl117830", "sa520710", "th301448" },
    "unotools|i18npool|comphelper",
    "windows: %u|paint rectangles: %u|fonts: %u|events dispatched: %u|glyphs cached: %u" },
  { "package", { "mv142208" },
    "comphelper|ucb",
    "zip entries: %u|manifest entries: %u|bytes inflated: %u|stream: %s" },
  { "comphelper", { "fs230751", "mv142208" },
    "unotools",
    "services: %u|arguments: %u" },
  { "i18npool", { "kh408813" },
    "comphelper|unotools",
    "locale: en-US|locale: de-DE|formats: %u|modules loaded: %u" },
  { "svx", { "aw190523", "cl417733" },
    "vcl|svtools|xmloff|comphelper|i18npool|editeng",
    "objects: %u|pages: %u|primitives: %u" },
  { "linguistic", { "tl332907" },
    "i18npool|configmgr|unotools",
    "words checked: %u|dictionaries: %u|services: %u" },
  { "basic", { "ab502266" },
    "comphelper|unotools|sfx2",
    "libraries: %u|modules compiled: %u|steps: %u" },
  { "unotools", { "hr150964" },
    "comphelper|configmgr",
    "properties: %u|url: %s" },
  { "editeng", { "mt178812" },
    "i18npool|vcl|unotools",
    "paragraphs: %u|lines: %u|portions: %u" },
  { "oox", { "dr100932", "nr402213" },
    "package|comphelper|xmloff|svx",
    "fragments: %u|relations: %u|stream: xl/workbook.xml|stream: word/document.xml" },
  { "chart2", { "iha30912", "bm219807" },
    "svx|vcl|comphelper",
    "series: %u|data points: %u|shapes: %u" },
  { "PERFORMANCE", { NULL },
    "sfx2|framework|sw|sc|sd",
    "documents: %u|views: %u|filter: writer8|filter: calc8" },
};

typedef struct
{
  const char *module;
  const char *scope;          /* "::SwDocShell", or the whole free-text name */
  const char *methods;        /* space separated; NULL for a free-text name */
  Role        role;
  const char *callees;        /* NULL: the module's; else "|"-separated
                                 module names or "=function" */
  unsigned    min_children;   /* both 0: the role's */
  unsigned    max_children;
  const char *first_message;  /* always the scope's first message */
} ClassDef;

/* One line per class: 269 scope names in all. Most are real class
 * and function names of the OpenOffice.org sources of the time. */
static const ClassDef class_defs[] = {
  { "desktop", "::desktop::Desktop", "Main", ROLE_ROOT, NULL, 0, 0, NULL },
  { "desktop", "::desktop::Desktop", "OpenClients OpenDefault OpenSplashScreen", ROLE_MAIN_TASK, NULL, 0, 0, NULL },
  { "desktop", "::desktop::Desktop", "Init InitApplicationServiceManager RegisterServices CheckFirstRun HandleBootstrapErrors CreateTemporaryDirectory", ROLE_INNER, NULL, 0, 0, NULL },
  { "desktop", "::desktop::DispatchWatcher", "executeDispatchRequests dispatchFinished", ROLE_INNER, NULL, 0, 0, NULL },
  { "desktop", "::desktop::CommandLineArgs", "ParseCommandLine_Impl InterpretCommandLineParameter", ROLE_LEAF, NULL, 0, 0, NULL },
  { "desktop", "::desktop::Migration", "checkMigration doMigration", ROLE_INNER, NULL, 0, 0, NULL },

  { "sfx2", "::SfxDispatcher", "Execute Update_Impl", ROLE_MAIN_TASK, NULL, 0, 0, NULL },
  { "sfx2", "::SfxObjectShell", "DoLoad DoSave_Impl ConvertFrom SaveTo_Impl PreDoSaveAs_Impl ImportFrom", ROLE_INNER, NULL, 0, 0, NULL },
  { "sfx2", "::SfxObjectShell", "AutoSave_Impl", ROLE_WORKER_TASK, NULL, 0, 0, NULL },
  { "sfx2", "::SfxMedium", "GetInStream Transfer_Impl Commit GetStorage", ROLE_INNER, NULL, 0, 0, NULL },
  { "sfx2", "::SfxApplication", "OpenDocExec_Impl NewDocExec_Impl Initialize_Impl", ROLE_INNER, NULL, 0, 0, NULL },
  { "sfx2", "::SfxBindings", "Invalidate Update_Impl NextJob_Impl", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sfx2", "::SfxViewFrame", "Show Activate", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sfx2", "::SfxBaseModel", "storeToURL load attachResource", ROLE_INNER, NULL, 0, 0, NULL },

  { "framework", "::framework::LoadEnv", "startLoading", ROLE_MAIN_TASK, NULL, 0, 0, NULL },
  { "framework", "::framework::LoadEnv", "impl_loadContent impl_detectTypeAndFilter waitWhileLoading", ROLE_INNER, NULL, 0, 0, NULL },
  { "framework", "::framework::Desktop", "loadComponentFromURL terminate", ROLE_INNER, NULL, 0, 0, NULL },
  { "framework", "::framework::Frame", "initialize setComponent activate", ROLE_INNER, NULL, 0, 0, NULL },
  { "framework", "::framework::LayoutManager", "createElement doLayout implts_createToolBars", ROLE_INNER, NULL, 0, 0, NULL },
  { "framework", "::framework::MenuBarManager", "FillMenu UpdateSpecialWindowMenu", ROLE_LEAF, NULL, 0, 0, NULL },
  { "framework", "::framework::ToolBarManager", "FillToolbar RequestImages", ROLE_LEAF, NULL, 0, 0, NULL },
  { "framework", "::framework::JobExecutor", "trigger", ROLE_WORKER_TASK, NULL, 0, 0, NULL },
  { "framework", "::framework::AutoRecovery", "implts_saveDocs implts_doRecovery", ROLE_INNER, NULL, 0, 0, NULL },

  { "sw", "::SwDocShell", "Load ConvertFrom Save SaveAs InitNew LoadStyles", ROLE_INNER, NULL, 0, 0, NULL },
  { "sw", "::SwXMLImport", "startDocument endDocument setTextInsertMode", ROLE_INNER, NULL, 0, 0, NULL },
  { "sw", "::SwReader", "Read", ROLE_INNER, NULL, 0, 0, NULL },
  { "sw", "::SwWW8ImplReader", "LoadDoc_Impl ReadText ReadPlainChars", ROLE_INNER, NULL, 0, 0, NULL },
  { "sw", "::SwViewShell", "ImplEndAction CalcLayout Paint InvalidateWindows", ROLE_INNER, NULL, 0, 0, NULL },
  { "sw", "::SwLayAction", "Action InternalAction FormatLayout FormatContent", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "sw", "::SwLayoutFrame", "Format MakeAll", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "sw", "::SwFrame", "Calc PrepareMake", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "sw", "::SwTextFormatter", "BuildPortions FormatLine CalcRealHeight", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sw", "::SwTextNode", "Insert Update GetTextAttrAt", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sw", "::SwDoc", "MakeTextFormatColl UpdateFields SetModified GetNumRuleTable", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sw", "::SwNodes", "MakeTextNode _CopyNodes", ROLE_INNER, NULL, 0, 0, NULL },
  { "sw", "::SwFieldMgr", "UpdateCurField", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sw", "::SwEditShell", "EndAllAction", ROLE_MAIN_TASK, NULL, 0, 0, NULL },

  { "sc", "::ScDocShell", "Load ConvertFrom SaveXML LoadXML InitNew", ROLE_INNER, NULL, 0, 0, NULL },
  { "sc", "::ScXMLImport", "startDocument endDocument SetStatistics", ROLE_INNER, NULL, 0, 0, NULL },
  { "sc", "::ScInterpreter", "Interpret ScSum ScVLookup ScIndirect", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "sc", "::ScFormulaCell", "Interpret InterpretTail", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "sc", "::ScTable", "SetString SetValue GetCell", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sc", "::ScColumn", "Insert SetString", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sc", "::ScDocument", "CalcAll CompileXML SetDirty UpdateChartListenerCollection", ROLE_INNER, NULL, 0, 0, NULL },
  { "sc", "::ScImportExport", "Text2Doc ImportStream", ROLE_INNER, NULL, 0, 0, NULL },
  { "sc", "::ScGridWindow", "Paint Draw", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sc", "::ScTabViewShell", "Execute", ROLE_MAIN_TASK, NULL, 0, 0, NULL },

  { "sd", "::sd::DrawDocShell", "Load ConvertFrom SaveAs InitNew", ROLE_INNER, NULL, 0, 0, NULL },
  { "sd", "::SdXMLImport", "startDocument endDocument", ROLE_INNER, NULL, 0, 0, NULL },
  { "sd", "::sd::DrawViewShell", "Construct Paint ReadFrameViewData", ROLE_INNER, NULL, 0, 0, NULL },
  { "sd", "::SdPage", "CreatePresObj SetAutoLayout", ROLE_LEAF, NULL, 0, 0, NULL },
  { "sd", "::SdDrawDocument", "CreateFirstPages StopWorkStartupDelay", ROLE_INNER, NULL, 0, 0, NULL },
  { "sd", "::sd::slidesorter::cache::QueueProcessor", "ProcessRequests", ROLE_WORKER_TASK, NULL, 0, 0, NULL },
  { "sd", "::sd::slidesorter::cache::BitmapFactory", "CreateBitmap", ROLE_LEAF, NULL, 0, 0, NULL },

  { "xmloff", "::SvXMLImport", "startDocument endDocument startElement endElement characters", ROLE_INNER, NULL, 0, 0, NULL },
  { "xmloff", "::SvXMLImportContext", "CreateChildContext StartElement EndElement", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "xmloff", "::XMLTextImportHelper", "CreateTextChildContext", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "xmloff", "::SvXMLStylesContext", "CreateStyleChildContext FinishStyles", ROLE_LEAF, NULL, 0, 0, NULL },
  { "xmloff", "::XMLPropStyleContext", "FillPropertySet CreateAndInsert", ROLE_LEAF, NULL, 0, 0, NULL },
  { "xmloff", "::SvXMLExport", "exportDoc ExportStyles_ ExportAutoStyles_ ExportContent_", ROLE_INNER, NULL, 0, 0, NULL },
  { "xmloff", "::SvXMLAttributeList", "AddAttribute", ROLE_LEAF, NULL, 0, 0, NULL },
  { "xmloff", "::XMLShapeImportHelper", "CreateGroupChildContext", ROLE_LEAF, NULL, 0, 0, NULL },

  { "ucb", "::ucb::Broker", "init queryContent", ROLE_INNER, NULL, 0, 0, NULL },
  { "ucb", "::ucb::ContentImplHelper", "execute getPropertyValues", ROLE_INNER, NULL, 0, 0, NULL },
  { "ucb", "::fileaccess::shell", "open page getv", ROLE_LEAF, NULL, 0, 0, NULL },
  { "ucb", "::ucb::Content", "openStream create", ROLE_INNER, NULL, 0, 0, NULL },
  { "ucb", "::webdav_ucp::DAVResourceAccess", "GET PROPFIND", ROLE_WORKER_TASK, NULL, 0, 0, NULL },
  { "ucb", "::package_ucp::Content", "getInputStream loadData", ROLE_LEAF, NULL, 0, 0, NULL },
  { "ucb", "::ucb::ResultSetImplHelper", "init", ROLE_WORKER_TASK, NULL, 0, 0, NULL },

  { "configmgr", "::configmgr::Provider", "create createInstanceWithArguments", ROLE_INNER, NULL, 0, 0, NULL },
  { "configmgr", "::configmgr::Components", "parseXcsXcuLayer parseModificationLayer", ROLE_INNER, NULL, 0, 0, NULL },
  { "configmgr", "::configmgr::XcuParser", "handleItem handleGroupProp handleSetNode", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "configmgr", "::configmgr::Access", "getByName getPropertyValue", ROLE_LEAF, NULL, 0, 0, NULL },
  { "configmgr", "::configmgr::RootAccess", "commitChanges", ROLE_LEAF, NULL, 0, 0, NULL },
  { "configmgr", "::configmgr::Components", "writeModifications flushModifications", ROLE_WORKER_TASK, NULL, 0, 0, NULL },

  { "svtools", "::svt::ThumbnailRenderer", "run", ROLE_WORKER_TASK, NULL, 0, 0, NULL },
  { "svtools", "::svt::ToolboxController", "initialize update", ROLE_INNER, NULL, 0, 0, NULL },
  { "svtools", "::SvtLinguConfig", "GetProperty", ROLE_LEAF, NULL, 0, 0, NULL },
  { "svtools", "::GraphicFilter", "ImportGraphic ExportGraphic GetImportFormatNumber", ROLE_LEAF, NULL, 0, 0, NULL },
  { "svtools", "::SvtFileDialog", "Execute", ROLE_INNER, NULL, 0, 0, NULL },
  { "svtools", "::svt::TemplateFolderCache", "needsUpdate", ROLE_LEAF, NULL, 0, 0, NULL },
  { "svtools", "::GraphicCache", "ImplFreeDisplayCacheSpace", ROLE_WORKER_TASK, NULL, 0, 0, NULL },

  { "vcl", "::Application", "Yield Execute", ROLE_MAIN_TASK, NULL, 0, 0, NULL },
  { "vcl", "::Window", "ImplCallPaint ImplCallResize Show", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "vcl", "::OutputDevice", "DrawText DrawBitmapEx DrawRect GetTextWidth", ROLE_LEAF, NULL, 0, 0, NULL },
  { "vcl", "::ImplFontCache", "GetFontEntry", ROLE_LEAF, NULL, 0, 0, NULL },
  { "vcl", "::Timer", "ImplTimerCallbackProc", ROLE_INNER, NULL, 0, 0, NULL },
  { "vcl", "::ImplDevFontList", "Add FindFontFamily", ROLE_LEAF, NULL, 0, 0, NULL },
  { "vcl", "::BitmapEx", "Scale Convert", ROLE_LEAF, NULL, 0, 0, NULL },

  { "package", "::ZipPackage", "initialize getByHierarchicalName commitChanges", ROLE_INNER, NULL, 0, 0, NULL },
  { "package", "::ZipFile", "readCEN getInputStream", ROLE_LEAF, NULL, 0, 0, NULL },
  { "package", "::ZipPackageStream", "GetOwnSeekStream", ROLE_LEAF, NULL, 0, 0, NULL },
  { "package", "::ManifestReader", "readManifestSequence", ROLE_LEAF, NULL, 0, 0, NULL },

  { "comphelper", "::comphelper::OStorageHelper", "GetStorageFromURL GetStorageOfFormatFromInputStream", ROLE_LEAF, NULL, 0, 0, NULL },
  { "comphelper", "::comphelper::MediaDescriptor", "addInputStream", ROLE_LEAF, NULL, 0, 0, NULL },
  { "comphelper", "::comphelper", "getProcessServiceFactory", ROLE_LEAF, NULL, 0, 0, NULL },

  { "i18npool", "::i18n::BreakIteratorImpl", "nextWord getLineBreak", ROLE_LEAF, NULL, 0, 0, NULL },
  { "i18npool", "::i18n::TransliterationImpl", "transliterate loadModule", ROLE_LEAF, NULL, 0, 0, NULL },
  { "i18npool", "::i18n::LocaleData", "getLocaleItem getAllFormats", ROLE_LEAF, NULL, 0, 0, NULL },
  { "i18npool", "::i18n::NumberFormatCodeMapper", "getAllFormatCode", ROLE_LEAF, NULL, 0, 0, NULL },

  { "svx", "::SdrModel", "InsertPage SetChanged", ROLE_INNER, NULL, 0, 0, NULL },
  { "svx", "::SdrObjGroup", "NbcMove RecalcSnapRect", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "svx", "::SdrPaintView", "CompleteRedraw", ROLE_LEAF, NULL, 0, 0, NULL },
  { "svx", "::SvxShape", "setPropertyValue getPropertyValue", ROLE_LEAF, NULL, 0, 0, NULL },
  { "svx", "::SvxUnoTextRangeBase", "setString", ROLE_LEAF, NULL, 0, 0, NULL },

  { "linguistic", "::linguistic::GrammarCheckingIterator", "DequeueAndCheck", ROLE_WORKER_TASK, NULL, 0, 0, NULL },
  { "linguistic", "::SpellCheckerDispatcher", "isValid spell", ROLE_LEAF, NULL, 0, 0, NULL },
  { "linguistic", "::LngSvcMgr", "getAvailableServices", ROLE_LEAF, NULL, 0, 0, NULL },

  { "basic", "::SbModule", "Run Compile", ROLE_INNER, NULL, 0, 0, NULL },
  { "basic", "::SbiRuntime", "Step", ROLE_RECURSIVE, NULL, 0, 0, NULL },
  { "basic", "::BasicManager", "LoadLib", ROLE_LEAF, NULL, 0, 0, NULL },

  { "unotools", "::utl::ConfigItem", "GetProperties PutProperties Commit", ROLE_LEAF, NULL, 0, 0, NULL },
  { "unotools", "::utl::TempFile", "TempFile", ROLE_LEAF, NULL, 0, 0, NULL },
  { "unotools", "::utl::UCBContentHelper", "Exists IsFolder", ROLE_LEAF, NULL, 0, 0, NULL },

  { "editeng", "::ImpEditEngine", "FormatDoc CreateLines Paint", ROLE_INNER, NULL, 0, 0, NULL },
  { "editeng", "::EditEngine", "SetText InsertText", ROLE_LEAF, NULL, 0, 0, NULL },

  { "oox", "::oox::core::XmlFilterBase", "importDocument importFragment", ROLE_INNER, NULL, 0, 0, NULL },
  { "oox", "::oox::xls::WorkbookFragment", "finalizeImport", ROLE_INNER, NULL, 0, 0, NULL },
  { "oox", "::oox::drawingml::Shape", "addShape createAndInsert", ROLE_RECURSIVE, NULL, 0, 0, NULL },

  { "chart2", "::chart::ChartView", "createShapes impl_createDiagramAndContent", ROLE_INNER, NULL, 0, 0, NULL },
  { "chart2", "::chart::VSeriesPlotter", "createShapes", ROLE_LEAF, NULL, 0, 0, NULL },

  /* Free-text contexts of release builds (RTL_LOGFILE_PRODUCT_CONTEXT) */
  { "PERFORMANCE", "PERFORMANCE - open documents", NULL, ROLE_MAIN_TASK,
    "=PERFORMANCE SfxObjectShell::DoLoad", 1, 2, NULL },
  { "PERFORMANCE", "PERFORMANCE SfxObjectShell::DoLoad", NULL, ROLE_INNER,
    "=::SwDocShell::Load|=::ScDocShell::Load|=::sd::DrawDocShell::Load|=::SwWW8ImplReader::LoadDoc_Impl|=::oox::core::XmlFilterBase::importDocument",
    1, 1, "loading \"%s\"" },
  { "PERFORMANCE", "PERFORMANCE SfxObjectShell::DoSave", NULL, ROLE_MAIN_TASK,
    "=::SwDocShell::Save|=::ScDocShell::SaveXML|=::sd::DrawDocShell::SaveAs|=::SvXMLExport::exportDoc",
    1, 2, "saving \"%s\"" },
  { "PERFORMANCE", "PERFORMANCE - DesktopOpenClients_Impl()", NULL, ROLE_MAIN_TASK, "framework|sfx2", 0, 0, NULL },
  { "PERFORMANCE", "PERFORMANCE - SfxApplication::OpenDocExec_Impl", NULL, ROLE_MAIN_TASK, "sfx2|framework", 0, 0, NULL },
};

/* Phases of logical scopes, `| N : { phase` … `| N : } phase` */
static const char * const phases[] = {
  "register services", "import styles", "import content", "create view",
  "format layout", "read settings", "initialize filters", "load images",
  "build index", "update fields", "calculate", "write stream",
};

/* Context-free messages, `| : text` (RTL_LOGFILE_TRACE) */
static const char * const free_messages[] = {
  "PERFORMANCE - enter Application::Execute()",
  "PERFORMANCE - document visible",
  "PERFORMANCE - DesktopOpenClients_Impl()",
  "PERFORMANCE - SfxApplication::Initialize_Impl done",
  "autosave timer fired",
  "clipboard content changed",
  "idle handler done",
  "worker thread started",
};

/* The documents a session opens, by the module whose filter loads them */
static const char * const writer_urls[] = {
  "file:///home/user/report.odt",
  "file:///home/user/Documents/letter.doc",
  "file:///home/user/thesis/chapter3.odt",
  "file:///C:/Documents%20and%20Settings/user/My%20Documents/memo.sxw",
};
static const char * const calc_urls[] = {
  "file:///home/user/Documents/budget-2009.ods",
  "file:///home/user/sales.xls",
  "file:///home/user/measurements.csv",
};
static const char * const impress_urls[] = {
  "file:///home/user/slides.odp",
  "file:///C:/Documents%20and%20Settings/user/Desktop/kickoff.ppt",
};

/* UNO calls of the log bridge (§2.4): the begin record lacks its newline
 * and is followed by an untimed `| : ( LogBridge …)` line */
typedef struct
{
  const char *method;
  const char *arguments;      /* "": the bridge wrote no argument line */
  const char *outcome;        /* after the name in the end record */
} LogBridgeCall;

static const LogBridgeCall log_bridge_calls[] = {
  { "com.sun.star.frame.XComponentLoader::loadComponentFromURL",
    "\"private:factory/swriter\",\"_blank\",0,[]", "return : com.sun.star.lang.XComponent" },
  { "com.sun.star.beans.XPropertySet::getPropertyValue", "\"CharHeight\"", "return : 12" },
  { "com.sun.star.lang.XMultiServiceFactory::createInstance",
    "\"com.sun.star.text.TextField.DateTime\"", "return : com.sun.star.uno.XInterface" },
  { "com.sun.star.frame.XDispatch::dispatch", "", "return : void" },
  { "com.sun.star.container::XNameAccess::getByName", "\"Standard\"",
    "excption occured : com.sun.star.container.NoSuchElementException" },
  /* String arguments are written raw and may hold a newline: the second
   * half becomes a prefix-less text line */
  { "com.sun.star.text.XTextRange::setString", "\"Dear Sir or Madam,\nthank you\"", "return : void" },
};

/* ------------------------------------------------------------------------ */
/* The vocabulary at run time                                               */

typedef struct
{
  gboolean is_name;           /* index is a name, else a module */
  unsigned index;
} Callee;

typedef struct
{
  char        *text;          /* "sw (ef112233) ::SwDocShell::Load" */
  size_t       length;
  char        *module_text;   /* "sw (ef112233)"; NULL for free text */
  size_t       module_length;
  const char  *function;      /* "::SwDocShell::Load", inside text */
  char        *end_text;      /* the name in the end record */
  size_t       end_length;
  unsigned     module;
  Role         role;
  double       median_gap_us; /* self time between two records */
  double       sigma;
  unsigned     min_children;
  unsigned     max_children;
  Callee      *callees;       /* NULL: the module's */
  unsigned     n_callees;
  const char  *first_message;
  const char  *bridge_arguments;  /* not NULL: a log-bridge call */
  const ClassDef *def;
} Name;

typedef struct
{
  const ModuleDef *def;
  char           **messages;
  unsigned         n_messages;
  unsigned        *callees;   /* module indexes */
  unsigned         n_callees;
  GArray          *by_role[N_ROLES];   /* name indexes */
  const char * const *urls;
  unsigned         n_urls;
} Module;

typedef struct
{
  Name     *names;
  unsigned  n_names;
  unsigned  n_vocabulary;     /* names before the log-bridge ones */
  Module    modules[G_N_ELEMENTS (module_defs)];
  GArray   *by_role[N_ROLES]; /* all modules */
  unsigned  root;             /* Desktop::Main */
  unsigned  open_documents;   /* the main thread's favourite tasks */
  unsigned  save_document;
  unsigned  first_bridge;     /* log-bridge names from here on */
} Vocabulary;

static unsigned
module_lookup (const char *name)
{
  for (unsigned m = 0; m < G_N_ELEMENTS (module_defs); m++)
    if (strcmp (module_defs[m].name, name) == 0)
      return m;
  g_error ("gen-rtl-logfile: unknown module %s in the vocabulary", name);
  return 0;
}

/* A fixed pseudo-random value in [0, 1) per name, so that the timings of
 * the vocabulary do not depend on --seed */
static double
name_hash_uniform (const char *text,
                   unsigned    salt)
{
  uint64_t hash = 0xcbf29ce484222325ull + salt;

  for (const char *p = text; *p != '\0'; p++)
    hash = (hash ^ (unsigned char) *p) * 0x100000001b3ull;
  return (double) (splitmix64 (&hash) >> 11) * (1.0 / 9007199254740992.0);
}

/* Median self time between two records of a scope, log-uniform in a range
 * per role; the sigma of the log-normal spread is fixed per name too */
static void
name_set_timing (Name *name)
{
  static const struct { double low_us, high_us; } ranges[N_ROLES] = {
    [ROLE_ROOT]        = { 12000, 12000 },
    [ROLE_MAIN_TASK]   = { 1000, 10000 },
    [ROLE_WORKER_TASK] = { 600, 6000 },
    [ROLE_INNER]       = { 100, 3000 },
    [ROLE_LEAF]        = { 50, 8000 },
    [ROLE_RECURSIVE]   = { 20, 400 },
  };
  double u = name_hash_uniform (name->text, 1);

  name->median_gap_us = ranges[name->role].low_us *
                        pow (ranges[name->role].high_us / ranges[name->role].low_us, u);
  name->sigma = 0.4 + 0.7 * name_hash_uniform (name->text, 2);
}

static char **
split_list (const char *text,
            unsigned   *n_items)
{
  char **items = g_strsplit (text, "|", -1);

  *n_items = g_strv_length (items);
  return items;
}

static void
vocabulary_init (Vocabulary *vocabulary)
{
  GArray *names = g_array_new (FALSE, TRUE, sizeof (Name));
  unsigned class_index = 0;

  for (unsigned r = 0; r < N_ROLES; r++)
    vocabulary->by_role[r] = g_array_new (FALSE, FALSE, sizeof (unsigned));

  for (unsigned m = 0; m < G_N_ELEMENTS (module_defs); m++)
    {
      Module *module = &vocabulary->modules[m];
      g_auto(GStrv) callees = NULL;
      unsigned n_callees;

      module->def = &module_defs[m];
      module->messages = split_list (module->def->messages, &module->n_messages);
      callees = split_list (module->def->callees, &n_callees);
      module->callees = g_new (unsigned, n_callees);
      module->n_callees = n_callees;
      for (unsigned c = 0; c < n_callees; c++)
        module->callees[c] = module_lookup (callees[c]);
      for (unsigned r = 0; r < N_ROLES; r++)
        module->by_role[r] = g_array_new (FALSE, FALSE, sizeof (unsigned));

      if (strcmp (module->def->name, "sc") == 0)
        module->urls = calc_urls, module->n_urls = G_N_ELEMENTS (calc_urls);
      else if (strcmp (module->def->name, "sd") == 0)
        module->urls = impress_urls, module->n_urls = G_N_ELEMENTS (impress_urls);
      else
        module->urls = writer_urls, module->n_urls = G_N_ELEMENTS (writer_urls);
    }

  for (unsigned c = 0; c < G_N_ELEMENTS (class_defs); c++)
    {
      const ClassDef *def = &class_defs[c];
      unsigned m = module_lookup (def->module);
      const ModuleDef *module_def = &module_defs[m];
      g_auto(GStrv) methods = NULL;
      unsigned n_methods = 1;
      unsigned n_authors = 0;

      while (n_authors < G_N_ELEMENTS (module_def->authors) && module_def->authors[n_authors] != NULL)
        n_authors++;

      if (def->methods != NULL)
        {
          methods = g_strsplit (def->methods, " ", -1);
          n_methods = g_strv_length (methods);
        }
      for (unsigned i = 0; i < n_methods; i++)
        {
          Name name = { 0 };
          unsigned index = names->len;

          if (def->methods == NULL)
            {
              name.text = g_strdup (def->scope);
              name.function = name.text;
            }
          else
            {
              /* Classes of a module are spread over its authors */
              const char *author = module_def->authors[class_index % n_authors];

              name.module_text = g_strdup_printf ("%s (%s)", module_def->name, author);
              name.module_length = strlen (name.module_text);
              name.text = g_strdup_printf ("%s %s::%s", name.module_text, def->scope, methods[i]);
              name.function = name.text + name.module_length + 1;
            }
          name.length = strlen (name.text);
          name.end_text = name.text;
          name.end_length = name.length;
          name.module = m;
          name.role = def->role;
          name.min_children = def->min_children;
          name.max_children = def->max_children;
          name.first_message = def->first_message;
          name.def = def;
          name_set_timing (&name);
          g_array_append_val (names, name);

          if (def->role == ROLE_ROOT)
            vocabulary->root = index;
          else if (strcmp (name.text, "PERFORMANCE - open documents") == 0)
            vocabulary->open_documents = index;
          else if (strcmp (name.text, "PERFORMANCE SfxObjectShell::DoSave") == 0)
            vocabulary->save_document = index;

          if (def->role != ROLE_ROOT)
            {
              g_array_append_val (vocabulary->modules[m].by_role[def->role], index);
              g_array_append_val (vocabulary->by_role[def->role], index);
            }
        }
      class_index++;
    }
  vocabulary->n_vocabulary = names->len;

  /* The log bridge's calls are names too, outside the modules' lists */
  vocabulary->first_bridge = names->len;
  for (unsigned b = 0; b < G_N_ELEMENTS (log_bridge_calls); b++)
    {
      Name name = { 0 };

      name.text = g_strdup_printf ("LogBridge () %s", log_bridge_calls[b].method);
      name.length = strlen (name.text);
      name.function = name.text;
      name.end_text = g_strdup_printf ("%s %s", name.text, log_bridge_calls[b].outcome);
      name.end_length = strlen (name.end_text);
      name.module = module_lookup ("PERFORMANCE");
      name.role = ROLE_LEAF;
      name.median_gap_us = 300;
      name.sigma = 0.6;
      name.bridge_arguments = log_bridge_calls[b].arguments;
      g_array_append_val (names, name);
    }

  vocabulary->n_names = names->len;
  vocabulary->names = (Name *) g_array_free (names, FALSE);

  /* Callee lists of single names, after all names exist */
  for (unsigned n = 0; n < vocabulary->n_vocabulary; n++)
    {
      Name *name = &vocabulary->names[n];
      g_auto(GStrv) tokens = NULL;
      unsigned n_tokens;

      if (name->def->callees == NULL)
        continue;

      tokens = split_list (name->def->callees, &n_tokens);
      name->callees = g_new (Callee, n_tokens);
      name->n_callees = n_tokens;
      for (unsigned t = 0; t < n_tokens; t++)
        {
          if (tokens[t][0] != '=')
            {
              name->callees[t] = (Callee) { FALSE, module_lookup (tokens[t]) };
              continue;
            }
          name->callees[t].is_name = TRUE;
          name->callees[t].index = G_MAXUINT;
          for (unsigned other = 0; other < vocabulary->n_vocabulary; other++)
            if (strcmp (vocabulary->names[other].function, tokens[t] + 1) == 0)
              name->callees[t].index = other;
          if (name->callees[t].index == G_MAXUINT)
            g_error ("gen-rtl-logfile: unknown callee %s of %s", tokens[t], name->text);
        }
    }
}

static void
vocabulary_clear (Vocabulary *vocabulary)
{
  for (unsigned n = 0; n < vocabulary->n_names; n++)
    {
      Name *name = &vocabulary->names[n];

      if (name->end_text != name->text)
        g_free (name->end_text);
      g_free (name->text);
      g_free (name->module_text);
      g_free (name->callees);
    }
  g_free (vocabulary->names);

  for (unsigned m = 0; m < G_N_ELEMENTS (module_defs); m++)
    {
      Module *module = &vocabulary->modules[m];

      g_strfreev (module->messages);
      g_free (module->callees);
      for (unsigned r = 0; r < N_ROLES; r++)
        g_array_unref (module->by_role[r]);
    }
  for (unsigned r = 0; r < N_ROLES; r++)
    g_array_unref (vocabulary->by_role[r]);
}

/* ------------------------------------------------------------------------ */
/* Options                                                                   */

typedef struct
{
  const char *output_path;
  uint64_t    size_limit;     /* 0: no limit (needs --scopes) */
  uint64_t    scope_limit;    /* 0: no limit (needs --size) */
  uint64_t    seed;
  unsigned    n_threads;
  unsigned    max_depth;
  unsigned    pid;
  gboolean    faults;
} Options;

/* ------------------------------------------------------------------------ */
/* The simulated process                                                     */

typedef enum
{
  ACTION_BEGIN,               /* `{ N` of a child (or a task) */
  ACTION_END,                 /* `} N` of the innermost scope */
  ACTION_MESSAGE,             /* `| N : text` */
  ACTION_FREE_MESSAGE,        /* `| : text` */
  ACTION_LOGICAL_BEGIN,       /* `| N : { phase` */
  ACTION_LOGICAL_END,         /* `| N : } phase` */
} Action;

typedef enum
{
  FAULT_ORPHAN_END,           /* §7 #23 */
  FAULT_UNTERMINATED,         /* §7 #24, #25 */
  FAULT_NUL,                  /* §7 #16 */
  FAULT_INTERRUPTED,          /* §7 #18 */
  FAULT_CRLF,                 /* §7 #13 */
  FAULT_LOG_BRIDGE,           /* §7 #8, #26 and #7 */
  FAULT_CLOCK_BACK,           /* §7 #32 */
  N_FAULTS
} Fault;

static const char * const fault_names[N_FAULTS] = {
  "orphan end", "unterminated", "NUL-truncated", "interrupted", "CRLF",
  "log bridge", "clock back",
};

typedef struct
{
  const Name *name;
  unsigned    children_left;    /* ENDLESS for Desktop::Main */
  unsigned    messages_left;
  unsigned    chain_at;         /* children_left when the recursive child
                                   opens; NO_SLOT: no chain */
  unsigned    logical_open_at;  /* children_left when the logical scope
                                   opens; NO_SLOT: none */
  unsigned    logical_close_at;
  gboolean    logical_open;
  gboolean    first_message_pending;
  const char *phase;
  const Name *preset_child;     /* the first child, chosen in advance */
  size_t      reserved;         /* bytes kept for the end record */
} Frame;

typedef struct
{
  unsigned    number;           /* the thread id of the records */
  char        id_text[12];
  size_t      id_length;
  gboolean    is_main;
  const Name *preferred[2];     /* a worker's usual tasks */

  Frame      *frames;
  unsigned    n_frames;
  unsigned    level;            /* open scopes, logical ones included */

  uint64_t    now_us;           /* time of the pending action */
  uint64_t    arrival_us;       /* when it gets the writer's mutex */
  Action      action;
  const Name *child;            /* of ACTION_BEGIN */
  const char *free_text;        /* of ACTION_FREE_MESSAGE */
  gboolean    started;
  gboolean    finished;
} Thread;

typedef struct
{
  const Options *options;
  Writer        *writer;
  Vocabulary    *vocabulary;
  Rng            rng;

  Thread        *threads;
  Thread       **heap;          /* by arrival: the writer's mutex */
  unsigned       heap_size;

  uint64_t       timer_start_ms;
  uint64_t       clock_back_ms; /* wall-clock steps back so far */
  uint64_t       reserved;      /* bytes kept for all end records */
  gboolean       draining;      /* size or scope count reached: close all */

  uint64_t       fault_due[N_FAULTS];   /* records until the next one */
  uint64_t       faults[N_FAULTS];

  uint64_t       records;
  uint64_t       scopes;
  uint64_t       logical_scopes;
  uint64_t       messages;
  unsigned       max_level;
} Run;

/* ---- the writer's mutex: a min-heap of threads by arrival -------------- */

static inline gboolean
thread_before (const Thread *a,
               const Thread *b)
{
  if (a->arrival_us != b->arrival_us)
    return a->arrival_us < b->arrival_us;
  return a->number < b->number;
}

static void
heap_push (Run    *run,
           Thread *thread)
{
  unsigned i = run->heap_size++;

  while (i > 0)
    {
      unsigned parent = (i - 1) / 2;

      if (!thread_before (thread, run->heap[parent]))
        break;
      run->heap[i] = run->heap[parent];
      i = parent;
    }
  run->heap[i] = thread;
}

static Thread *
heap_pop (Run *run)
{
  Thread *top = run->heap[0];
  Thread *last = run->heap[--run->heap_size];
  unsigned i = 0;

  for (;;)
    {
      unsigned child = 2 * i + 1;

      if (child >= run->heap_size)
        break;
      if (child + 1 < run->heap_size && thread_before (run->heap[child + 1], run->heap[child]))
        child++;
      if (!thread_before (run->heap[child], last))
        break;
      run->heap[i] = run->heap[child];
      i = child;
    }
  if (run->heap_size > 0)
    run->heap[i] = last;
  return top;
}

/* ---- choosing names ----------------------------------------------------- */

static const Name *
pick_from (Run          *run,
           const GArray *indexes)
{
  if (indexes->len == 0)
    return NULL;
  return &run->vocabulary->names[g_array_index (indexes, unsigned,
                                                rng_range (&run->rng, 0, indexes->len - 1))];
}

/* A name of a module with the wanted role, or of a neighbouring role when
 * the module has none */
static const Name *
pick_in_module (Run      *run,
                unsigned  m,
                Role      role)
{
  static const Role fallback[] = { ROLE_LEAF, ROLE_INNER, ROLE_RECURSIVE };
  const Module *module = &run->vocabulary->modules[m];
  const Name *name = pick_from (run, module->by_role[role]);

  for (unsigned f = 0; name == NULL && f < G_N_ELEMENTS (fallback); f++)
    name = pick_from (run, module->by_role[fallback[f]]);
  return name;
}

static const Name *
choose_child (Run         *run,
              const Frame *parent)
{
  const Name *name = parent->name;
  const Module *module = &run->vocabulary->modules[name->module];
  unsigned m = name->module;
  Role role;
  double r;

  /* Recursion: layout frames formatting layout frames, contexts creating
   * contexts, formula cells interpreting formula cells */
  if (parent->children_left == parent->chain_at)
    return pick_in_module (run, m, ROLE_RECURSIVE);

  if (name->callees != NULL)
    {
      const Callee *callee = &name->callees[rng_range (&run->rng, 0, name->n_callees - 1)];

      if (callee->is_name)
        return &run->vocabulary->names[callee->index];
      m = callee->index;
    }
  else if (module->n_callees > 0 && rng_uniform (&run->rng) < 0.5)
    m = module->callees[rng_range (&run->rng, 0, module->n_callees - 1)];

  r = rng_uniform (&run->rng);
  if (name->role == ROLE_LEAF || name->role == ROLE_RECURSIVE)
    role = ROLE_LEAF;
  else if (r < 0.45)
    role = ROLE_INNER;
  else if (r < 0.85)
    role = ROLE_LEAF;
  else
    role = ROLE_RECURSIVE;

  return pick_in_module (run, m, role);
}

static const Name *
choose_task (Run    *run,
             Thread *thread)
{
  Vocabulary *vocabulary = run->vocabulary;

  if (thread->is_main)
    {
      /* Load and save timings are what these logs were mostly made for
       * (rtl-logfile.md §4.3) */
      double r = rng_uniform (&run->rng);

      if (r < 0.20)
        return &vocabulary->names[vocabulary->open_documents];
      if (r < 0.28)
        return &vocabulary->names[vocabulary->save_document];
      return pick_from (run, vocabulary->by_role[ROLE_MAIN_TASK]);
    }
  if (rng_uniform (&run->rng) < 0.8)
    return thread->preferred[rng_range (&run->rng, 0, 1)];
  return pick_from (run, vocabulary->by_role[ROLE_WORKER_TASK]);
}

/* ---- sizes, for stopping before --size ---------------------------------- */

static inline size_t
prefix_reserve (const Thread *thread)
{
  return MAX_TIME_DIGITS + 1 + thread->id_length + 1;
}

/* `} N` with the longest line end */
static inline size_t
end_reserve (const Thread *thread,
             const Name   *name)
{
  return prefix_reserve (thread) + 2 + name->end_length + 2;
}

/* `| N : } phase` */
static inline size_t
logical_end_reserve (const Thread *thread,
                     const Frame  *frame)
{
  return prefix_reserve (thread) + 2 + frame->name->length + 5 + strlen (frame->phase) + 2;
}

/* Whether a record of this many bytes, which leaves `more_reserved` bytes
 * of end records to write later, still fits under --size */
static inline gboolean
run_fits (Run      *run,
          uint64_t  length,
          uint64_t  more_reserved)
{
  return run->options->size_limit == 0 ||
         run->writer->written + length + run->reserved + more_reserved + CLOSE_LINE_RESERVE <=
         run->options->size_limit;
}

/* ---- threads ------------------------------------------------------------ */

static inline void
thread_advance (Run      *run,
                Thread   *thread,
                uint64_t  gap_us)
{
  double jitter_us;

  thread->now_us += gap_us;

  /* The time is taken before the mutex (§2.5); waiting for it usually
   * takes a moment, sometimes a few milliseconds. */
  jitter_us = rng_uniform (&run->rng) * 2000.0;
  if (rng_uniform (&run->rng) < 0.01)
    jitter_us += rng_uniform (&run->rng) * 6000.0;
  thread->arrival_us = thread->now_us + (uint64_t) jitter_us;
}

/* A short pause: the time between two trace calls of one function */
static inline uint64_t
short_gap_us (Run *run)
{
  return rng_range (&run->rng, 2, 60);
}

static inline uint64_t
self_gap_us (Run        *run,
             const Name *name)
{
  return rng_lognormal_us (&run->rng, name->median_gap_us, name->sigma);
}

/* A scope that begins at nesting level `level` (0: the thread's
 * outermost) inside `parent` (NULL: none): how many calls it makes, its
 * messages, maybe a logical scope, and the bytes kept for its end record */
static void
frame_init (Run         *run,
            Thread      *thread,
            Frame       *frame,
            const Frame *parent,
            const Name  *name,
            unsigned    level)
{
  const Options *options = run->options;
  unsigned total = 0;
  double r;

  memset (frame, 0, sizeof *frame);
  frame->name = name;
  frame->chain_at = NO_SLOT;
  frame->logical_open_at = NO_SLOT;
  frame->logical_close_at = NO_SLOT;

  if (name->role == ROLE_ROOT)
    {
      /* Desktop::Main: open for the whole run, registering services in a
       * logical scope first, as in §6 */
      frame->children_left = ENDLESS;
      frame->logical_open_at = ENDLESS;
      frame->logical_close_at = ENDLESS - rng_range (&run->rng, 1, 3);
      frame->phase = phases[0];
      frame->reserved = end_reserve (thread, name);
      run->reserved += frame->reserved;
      return;
    }

  if (level + 1 < options->max_depth && name->bridge_arguments == NULL && name->max_children == 0)
    {
      switch (name->role)
        {
        case ROLE_MAIN_TASK:
        case ROLE_WORKER_TASK:
          total = rng_range (&run->rng, 2, 10);
          break;
        case ROLE_INNER:
          total = rng_range (&run->rng, 0, level < 7 ? 7 - level : 1);
          break;
        case ROLE_LEAF:
          total = rng_uniform (&run->rng) < 0.8 ? 0 : rng_range (&run->rng, 1, 2);
          break;
        case ROLE_RECURSIVE:
          if (rng_uniform (&run->rng) < 0.9)
            {
              total = 1 + rng_range (&run->rng, 0, 1);
              frame->chain_at = rng_range (&run->rng, 1, total);
            }
          else
            total = rng_range (&run->rng, 0, 1);
          break;
        case ROLE_ROOT:
        case N_ROLES:
          g_assert_not_reached ();
        }
    }
  else if (level + 1 < options->max_depth && name->max_children > 0)
    total = rng_range (&run->rng, name->min_children, name->max_children);

  /* The filter's Load or Save under DoLoad/DoSave is where a document's
   * time goes */
  if (parent != NULL && parent->name->first_message != NULL && level + 1 < options->max_depth)
    total = rng_range (&run->rng, 4, 12);
  frame->children_left = total;

  if (name->bridge_arguments == NULL)
    {
      /* About one message per four scopes */
      r = rng_uniform (&run->rng);
      frame->messages_left = r < 0.19 ? 1 : r < 0.22 ? 2 : 0;
      if (name->first_message != NULL)
        {
          frame->first_message_pending = TRUE;
          frame->preset_child = total > 0 ? choose_child (run, frame) : NULL;
        }

      if (total >= 2 && name->role != ROLE_LEAF && level + 2 < options->max_depth &&
          rng_uniform (&run->rng) < 0.03)
        {
          frame->logical_open_at = rng_range (&run->rng, 1, total);
          frame->logical_close_at = rng_range (&run->rng, 0, frame->logical_open_at - 1);
          frame->phase = phases[rng_range (&run->rng, 0, G_N_ELEMENTS (phases) - 1)];
        }
    }

  frame->reserved = end_reserve (thread, name);
  run->reserved += frame->reserved;
}

/* Decides what the thread writes next and when */
static void
thread_plan (Run    *run,
             Thread *thread)
{
  const Options *options = run->options;
  Frame *top;

  if (run->draining)
    {
      if (thread->n_frames == 0)
        {
          thread->finished = TRUE;
          return;
        }
      top = &thread->frames[thread->n_frames - 1];
      thread->action = top->logical_open ? ACTION_LOGICAL_END : ACTION_END;
      thread_advance (run, thread, top->logical_open ? short_gap_us (run) : self_gap_us (run, top->name));
      return;
    }

  if (thread->n_frames == 0)
    {
      if (!thread->started)
        {
          thread->started = TRUE;
          if (thread->is_main || rng_uniform (&run->rng) < 0.5)
            {
              thread->action = ACTION_FREE_MESSAGE;
              thread->free_text = thread->is_main ? "PERFORMANCE - entering main"
                                                  : "worker thread started";
              thread_advance (run, thread, short_gap_us (run));
              return;
            }
        }

      thread->action = ACTION_BEGIN;
      if (thread->is_main && options->max_depth >= 3)
        {
          thread->child = &run->vocabulary->names[run->vocabulary->root];
          thread_advance (run, thread, short_gap_us (run));
        }
      else
        {
          /* A worker waiting for its next job */
          thread->child = choose_task (run, thread);
          thread_advance (run, thread, rng_lognormal_us (&run->rng, 50000, 1.2));
        }
      return;
    }

  top = &thread->frames[thread->n_frames - 1];
  for (;;)
    {
      if (top->first_message_pending)
        {
          thread->action = ACTION_MESSAGE;
          thread_advance (run, thread, short_gap_us (run));
          return;
        }

      if (!top->logical_open && top->children_left == top->logical_open_at)
        {
          if (thread->level >= options->max_depth)
            {
              top->logical_open_at = NO_SLOT;
              continue;
            }
          thread->action = ACTION_LOGICAL_BEGIN;
          thread_advance (run, thread, short_gap_us (run));
          return;
        }

      if (top->logical_open && top->children_left == top->logical_close_at)
        {
          thread->action = ACTION_LOGICAL_END;
          thread_advance (run, thread, short_gap_us (run));
          return;
        }

      /* Messages at random places among the calls; Desktop::Main, which
       * never runs out of calls, has one now and then */
      if (top->children_left > ENDLESS / 2
          ? rng_uniform (&run->rng) < 0.02
          : top->messages_left > 0 &&
            rng_uniform (&run->rng) * (top->children_left + 1.0) < top->messages_left)
        {
          thread->action = ACTION_MESSAGE;
          thread_advance (run, thread, short_gap_us (run));
          return;
        }

      if (rng_uniform (&run->rng) < 0.008)
        {
          thread->action = ACTION_FREE_MESSAGE;
          thread->free_text = free_messages[rng_range (&run->rng, 0, G_N_ELEMENTS (free_messages) - 1)];
          thread_advance (run, thread, short_gap_us (run));
          return;
        }

      if (top->children_left > 0)
        {
          if (thread->level >= options->max_depth)
            {
              /* No room below: the remaining calls are inlined */
              top->children_left = 0;
              top->chain_at = NO_SLOT;
              if (top->logical_open_at != NO_SLOT && !top->logical_open)
                top->logical_open_at = NO_SLOT;
              continue;
            }
          thread->action = ACTION_BEGIN;
          if (top->preset_child != NULL)
            {
              thread->child = top->preset_child;
              top->preset_child = NULL;
            }
          else if (top->name->role == ROLE_ROOT)
            thread->child = choose_task (run, thread);
          else
            thread->child = choose_child (run, top);
          thread_advance (run, thread, self_gap_us (run, top->name));
          return;
        }

      thread->action = top->logical_open ? ACTION_LOGICAL_END : ACTION_END;
      thread_advance (run, thread, top->logical_open ? short_gap_us (run) : self_gap_us (run, top->name));
      return;
    }
}

/* ---- records ------------------------------------------------------------ */

static inline uint32_t
thread_timer_ms (const Run    *run,
                 const Thread *thread)
{
  /* Unsigned 32-bit like the producer's, so it wraps like it */
  return (uint32_t) (run->timer_start_ms + thread->now_us / 1000 - run->clock_back_ms);
}

/* "<time> <thread> <kind>" */
static inline void
record_start (Run          *run,
              const Thread *thread,
              char          kind)
{
  Writer *writer = run->writer;

  writer_append_uint (writer, thread_timer_ms (run, thread), 6);
  writer_append_char (writer, ' ');
  writer_append (writer, thread->id_text, thread->id_length);
  writer_append_char (writer, ' ');
  writer_append_char (writer, kind);
}

static inline void
record_finish (Run      *run,
               gboolean  crlf)
{
  Writer *writer = run->writer;

  if (crlf)
    writer_append_char (writer, '\r');
  writer_end_line (writer);
  run->records++;

  for (unsigned f = 0; f < N_FAULTS; f++)
    if (run->fault_due[f] > 0)
      run->fault_due[f]--;
}

static inline gboolean
fault_armed (const Run *run,
             Fault      fault,
             gboolean   allow_faults)
{
  return allow_faults && run->options->faults && run->fault_due[fault] == 0;
}

static void
fault_done (Run   *run,
            Fault  fault)
{
  run->faults[fault]++;
  run->fault_due[fault] = rng_range (&run->rng, FAULT_GAP_MIN, FAULT_GAP_MAX);
}

/* Appends a message template: %u becomes a number (log-uniform up to some
 * ten thousands), %s a document URL of the module */
static void
append_template (Run          *run,
                 const Module *module,
                 const char   *template)
{
  Writer *writer = run->writer;

  for (const char *p = template; *p != '\0'; p++)
    {
      if (p[0] == '%' && p[1] == 'u')
        {
          writer_append_uint (writer, (uint64_t) exp (rng_uniform (&run->rng) * 10.3), 1);
          p++;
        }
      else if (p[0] == '%' && p[1] == 's')
        {
          const char *url = module->urls[rng_range (&run->rng, 0, module->n_urls - 1)];

          writer_append (writer, url, strlen (url));
          p++;
        }
      else
        writer_append_char (writer, *p);
    }
}

/* Longest expansion of a template: numbers have at most 5 digits, URLs
 * at most 80 bytes */
static size_t
template_reserve (const char *template)
{
  return strlen (template) + 80;
}

/* An over-long message (§2.5): cut at 4095 bytes, then a NUL byte, no
 * newline; the next record follows on the same line. */
static void
write_truncated_message (Run          *run,
                         const Thread *thread,
                         const Name   *name)
{
  static const char filler[] =
    "Title=report;Size=48211;IsFolder=false;MediaType=application/vnd.oasis.opendocument.text;";
  Writer *writer = run->writer;
  uint64_t start = writer->written;
  const char *label = "properties: ";

  record_start (run, thread, '|');
  writer_append_char (writer, ' ');
  writer_append (writer, name->text, name->length);
  writer_append (writer, " : ", 3);
  writer_append (writer, label, strlen (label));
  while (writer->written - start < RECORD_BUFFER_SIZE - 1)
    {
      size_t room = RECORD_BUFFER_SIZE - 1 - (size_t) (writer->written - start);

      writer_append (writer, filler, MIN (room, sizeof filler - 1));
    }
  writer_append_char (writer, '\0');
  run->records++;
}

static gboolean emit_next (Run *run, gboolean allow_faults);

/* `| N : text`; the name is the innermost scope's, sometimes an outer
 * one's (the parser searches down for it) or only "module (author)" (not
 * an open scope: attached to the innermost, §6). */
static gboolean
write_message (Run      *run,
               Thread   *thread,
               gboolean  allow_faults)
{
  Writer *writer = run->writer;
  Frame *top = &thread->frames[thread->n_frames - 1];
  const Name *name = top->name;
  const char *context = name->text;
  size_t context_length = name->length;
  const Module *module;
  const char *template;
  gboolean first = top->first_message_pending;
  gboolean truncate = FALSE;
  gboolean interrupt = FALSE;
  gboolean crlf = FALSE;
  size_t length;
  double r = rng_uniform (&run->rng);

  if (!first && r < 0.12 && thread->n_frames >= 2)
    {
      name = thread->frames[rng_range (&run->rng, 0, thread->n_frames - 2)].name;
      context = name->text;
      context_length = name->length;
    }
  else if (!first && r < 0.15 && name->module_text != NULL)
    {
      context = name->module_text;
      context_length = name->module_length;
    }
  module = &run->vocabulary->modules[name->module];

  if (first)
    {
      template = name->first_message;
      if (top->preset_child != NULL)
        module = &run->vocabulary->modules[top->preset_child->module];
    }
  else
    template = module->messages[rng_range (&run->rng, 0, module->n_messages - 1)];

  if (!first && fault_armed (run, FAULT_NUL, allow_faults))
    truncate = TRUE;
  else if (fault_armed (run, FAULT_INTERRUPTED, allow_faults) && run->heap_size > 0)
    interrupt = TRUE;
  else if (fault_armed (run, FAULT_CRLF, allow_faults))
    crlf = TRUE;

  length = truncate ? RECORD_BUFFER_SIZE
                    : prefix_reserve (thread) + 2 + context_length + 3 + template_reserve (template) + 2;
  if (!run_fits (run, length, 0))
    {
      run->draining = TRUE;
      return FALSE;
    }

  if (first)
    top->first_message_pending = FALSE;
  else if (top->messages_left > 0 && top->children_left <= ENDLESS / 2)
    top->messages_left--;
  run->messages++;

  writer_reserve (writer, MAX (length, RECORD_BUFFER_SIZE));
  if (truncate)
    {
      write_truncated_message (run, thread, name);
      fault_done (run, FAULT_NUL);
      return TRUE;
    }

  record_start (run, thread, '|');
  writer_append_char (writer, ' ');
  writer_append (writer, context, context_length);
  writer_append (writer, " : ", 3);

  if (interrupt)
    {
      /* A TRACE1 macro writes the prefix part, the text and the newline
       * with three separate locks (§2.4, §2.5): another thread's record
       * lands in between, and the text ends up on the next line. */
      fault_done (run, FAULT_INTERRUPTED);
      emit_next (run, FALSE);
      writer_reserve (writer, length);
    }

  append_template (run, module, template);
  record_finish (run, crlf);
  if (crlf)
    fault_done (run, FAULT_CRLF);
  return TRUE;
}

/* `} N` of a scope that is not open on this thread */
static void
write_orphan_end (Run    *run,
                  Thread *thread)
{
  Vocabulary *vocabulary = run->vocabulary;
  const Name *name = NULL;

  for (unsigned attempt = 0; attempt < 8 && name == NULL; attempt++)
    {
      name = &vocabulary->names[rng_range (&run->rng, 0, vocabulary->n_vocabulary - 1)];
      for (unsigned f = 0; f < thread->n_frames && name != NULL; f++)
        if (thread->frames[f].name == name)
          name = NULL;
    }
  if (name == NULL || !run_fits (run, end_reserve (thread, name), 0))
    return;

  writer_reserve (run->writer, end_reserve (thread, name));
  record_start (run, thread, '}');
  writer_append_char (run->writer, ' ');
  writer_append (run->writer, name->end_text, name->end_length);
  record_finish (run, FALSE);
  fault_done (run, FAULT_ORPHAN_END);
}

/* Whether dropping this scope's end record leaves a clear case for the
 * parser: an outer end arrives and no other open scope has the name */
static gboolean
can_drop_end (const Thread *thread)
{
  const Frame *top = &thread->frames[thread->n_frames - 1];

  if (thread->n_frames < 2 || top->name->bridge_arguments != NULL)
    return FALSE;
  for (unsigned f = 0; f + 1 < thread->n_frames; f++)
    if (thread->frames[f].name == top->name)
      return FALSE;
  return TRUE;
}

static gboolean
write_begin (Run      *run,
             Thread   *thread,
             gboolean  allow_faults)
{
  const Options *options = run->options;
  Writer *writer = run->writer;
  const Name *child = thread->child;
  Frame *frame;
  gboolean bridge = FALSE;
  gboolean crlf = FALSE;
  size_t length;

  if (thread->n_frames > 0 && child->role != ROLE_ROOT &&
      fault_armed (run, FAULT_LOG_BRIDGE, allow_faults))
    {
      child = &run->vocabulary->names[run->vocabulary->first_bridge +
                                      rng_range (&run->rng, 0, G_N_ELEMENTS (log_bridge_calls) - 1)];
      bridge = TRUE;
    }
  else if (fault_armed (run, FAULT_CRLF, allow_faults))
    crlf = TRUE;

  length = prefix_reserve (thread) + 2 + child->length + 2;
  if (bridge)
    length += sizeof "| : ( LogBridge )\n" + strlen (child->bridge_arguments);
  if ((options->scope_limit > 0 && run->scopes >= options->scope_limit) ||
      !run_fits (run, length, end_reserve (thread, child)))
    {
      run->draining = TRUE;
      return FALSE;
    }

  writer_reserve (writer, length);
  record_start (run, thread, '{');
  writer_append_char (writer, ' ');
  writer_append (writer, child->text, child->length);
  if (bridge)
    {
      const char *arguments = child->bridge_arguments;

      /* The bridge writes the begin without a newline, then (for most
       * calls) its arguments as an untimed message */
      writer_end_line (writer);
      if (arguments[0] != '\0')
        {
          writer_append (writer, "| : ( LogBridge ", 16);
          writer_append (writer, arguments, strlen (arguments));
          writer_append_char (writer, ')');
          writer_append_char (writer, '\n');
          writer->lines += 1 + (strchr (arguments, '\n') != NULL);
        }
      run->records++;
      fault_done (run, FAULT_LOG_BRIDGE);
    }
  else
    {
      record_finish (run, crlf);
      if (crlf)
        fault_done (run, FAULT_CRLF);
    }
  run->scopes++;

  if (thread->n_frames > 0)
    thread->frames[thread->n_frames - 1].children_left--;
  frame = &thread->frames[thread->n_frames++];
  frame_init (run, thread, frame, thread->n_frames >= 2 ? frame - 1 : NULL, child, thread->level);
  thread->level++;
  run->max_level = MAX (run->max_level, thread->level);
  return TRUE;
}

static void
write_end (Run      *run,
           Thread   *thread,
           gboolean  allow_faults)
{
  Writer *writer = run->writer;
  Frame *frame = &thread->frames[thread->n_frames - 1];
  gboolean crlf = FALSE;

  if (fault_armed (run, FAULT_UNTERMINATED, allow_faults) && can_drop_end (thread))
    {
      /* The end record is simply missing (§7 #25) */
      fault_done (run, FAULT_UNTERMINATED);
    }
  else
    {
      if (fault_armed (run, FAULT_CRLF, allow_faults))
        {
          crlf = TRUE;
          fault_done (run, FAULT_CRLF);
        }
      writer_reserve (writer, frame->reserved);
      record_start (run, thread, '}');
      writer_append_char (writer, ' ');
      writer_append (writer, frame->name->end_text, frame->name->end_length);
      record_finish (run, crlf);
    }

  run->reserved -= frame->reserved;
  thread->n_frames--;
  thread->level--;
}

static gboolean
write_logical (Run      *run,
               Thread   *thread,
               gboolean  begin)
{
  Writer *writer = run->writer;
  Frame *frame = &thread->frames[thread->n_frames - 1];
  size_t reserve = logical_end_reserve (thread, frame);

  if (begin && !run_fits (run, reserve, reserve))
    {
      run->draining = TRUE;
      return FALSE;
    }

  writer_reserve (writer, reserve);
  record_start (run, thread, '|');
  writer_append_char (writer, ' ');
  writer_append (writer, frame->name->text, frame->name->length);
  writer_append (writer, begin ? " : { " : " : } ", 5);
  writer_append (writer, frame->phase, strlen (frame->phase));
  record_finish (run, FALSE);

  if (begin)
    {
      frame->logical_open = TRUE;
      run->reserved += reserve;
      run->logical_scopes++;
      thread->level++;
      run->max_level = MAX (run->max_level, thread->level);
    }
  else
    {
      frame->logical_open = FALSE;
      frame->logical_open_at = NO_SLOT;
      run->reserved -= reserve;
      thread->level--;
    }
  return TRUE;
}

static gboolean
write_free_message (Run    *run,
                    Thread *thread)
{
  Writer *writer = run->writer;
  size_t length = prefix_reserve (thread) + 4 + strlen (thread->free_text) + 2;

  if (!run_fits (run, length, 0))
    {
      run->draining = TRUE;
      return FALSE;
    }
  writer_reserve (writer, length);
  record_start (run, thread, '|');
  writer_append (writer, " : ", 3);
  writer_append (writer, thread->free_text, strlen (thread->free_text));
  record_finish (run, FALSE);
  run->messages++;
  return TRUE;
}

/* The wall clock is set back: the process timer, and so every thread's
 * times, jump back by a few seconds (§2.3; §7 #32). Never below zero,
 * which would be §7 #34 instead. */
static void
clock_step_back (Run          *run,
                 const Thread *thread)
{
  uint64_t timer_ms = run->timer_start_ms + thread->now_us / 1000 - run->clock_back_ms;
  uint64_t step_ms = MIN ((uint64_t) rng_range (&run->rng, 1500, 6000), timer_ms / 2);

  /* Too early in the run: try again at a later record */
  if (timer_ms < 200)
    return;
  run->clock_back_ms += step_ms;
  fault_done (run, FAULT_CLOCK_BACK);
}

static gboolean
is_opening (Action action)
{
  return action != ACTION_END && action != ACTION_LOGICAL_END;
}

/* Writes the thread's pending record; FALSE if it was replaced by a new
 * plan instead (stopping: no more scopes or messages) */
static gboolean
thread_emit (Run      *run,
             Thread   *thread,
             gboolean  allow_faults)
{
  gboolean written = TRUE;

  if (run->draining && is_opening (thread->action))
    {
      thread_plan (run, thread);
      return FALSE;
    }

  if (!run->draining && fault_armed (run, FAULT_CLOCK_BACK, allow_faults))
    clock_step_back (run, thread);
  if (!run->draining && fault_armed (run, FAULT_ORPHAN_END, allow_faults) && thread->n_frames > 0)
    write_orphan_end (run, thread);

  switch (thread->action)
    {
    case ACTION_BEGIN:
      written = write_begin (run, thread, allow_faults);
      break;
    case ACTION_END:
      write_end (run, thread, allow_faults);
      break;
    case ACTION_MESSAGE:
      written = write_message (run, thread, allow_faults);
      break;
    case ACTION_FREE_MESSAGE:
      written = write_free_message (run, thread);
      break;
    case ACTION_LOGICAL_BEGIN:
      written = write_logical (run, thread, TRUE);
      break;
    case ACTION_LOGICAL_END:
      write_logical (run, thread, FALSE);
      break;
    }

  thread_plan (run, thread);
  return written;
}

/* The next record to get the writer's mutex; FALSE when all threads have
 * finished. With allow_faults FALSE the record is a plain one. */
static gboolean
emit_next (Run      *run,
           gboolean  allow_faults)
{
  while (run->heap_size > 0)
    {
      Thread *thread = heap_pop (run);
      gboolean written = thread_emit (run, thread, allow_faults);

      if (!thread->finished)
        heap_push (run, thread);
      if (written)
        return TRUE;
    }
  return FALSE;
}

static void
run_threads_init (Run *run)
{
  const Options *options = run->options;
  Vocabulary *vocabulary = run->vocabulary;
  const GArray *worker_tasks = vocabulary->by_role[ROLE_WORKER_TASK];
  unsigned number = 1;

  run->threads = g_new0 (Thread, options->n_threads);
  run->heap = g_new (Thread *, options->n_threads);

  for (unsigned t = 0; t < options->n_threads; t++)
    {
      Thread *thread = &run->threads[t];

      /* Small ids from sal's own counter (§2.3); threads that never log
       * leave gaps */
      thread->number = number;
      number += t == 0 ? 1 : rng_range (&run->rng, 1, 3);
      thread->id_length = (size_t) g_snprintf (thread->id_text, sizeof thread->id_text, "%u", thread->number);
      thread->is_main = t == 0;
      thread->frames = g_new (Frame, options->max_depth);
      for (unsigned p = 0; p < 2; p++)
        thread->preferred[p] = &vocabulary->names[g_array_index (worker_tasks, unsigned,
                                                                 (t * 3 + p * 5) % worker_tasks->len)];

      /* Workers start a little after the main thread */
      thread->now_us = thread->is_main ? 0 : rng_range (&run->rng, 2000, 200000);
      thread_plan (run, thread);
      heap_push (run, thread);
    }
}

static void
run_file (Run *run)
{
  const Options *options = run->options;
  uint64_t epoch_s = rng_range (&run->rng, 1104537600u, 1356998399u);   /* 2005–2012 */
  unsigned epoch_us = rng_range (&run->rng, 0, 999999);
  uint64_t last_us = 0;

  /* §2.2: the timer starts at its first use, maybe a moment before the
   * file is opened */
  run->timer_start_ms = rng_uniform (&run->rng) < 0.5 ? 0 : rng_range (&run->rng, 1, 40);

  writer_line (run->writer, "opening log file %" G_GUINT64_FORMAT ".%06u seconds past January 1st 1970",
               epoch_s, epoch_us);
  writer_line (run->writer, "corresponding to %" G_GUINT64_FORMAT " ms after timer start",
               run->timer_start_ms);
  writer_line (run->writer, "Process id is %u", options->pid);

  for (unsigned f = 0; f < N_FAULTS; f++)
    run->fault_due[f] = rng_range (&run->rng, FIRST_FAULT_MIN, FIRST_FAULT_MAX);

  run_threads_init (run);
  while (emit_next (run, TRUE))
    ;

  /* Orderly shutdown: the close line, no newline (§2.2) */
  for (unsigned t = 0; t < options->n_threads; t++)
    last_us = MAX (last_us, run->threads[t].now_us);
  last_us += rng_range (&run->rng, 500, 4000);
  writer_reserve (run->writer, CLOSE_LINE_RESERVE);
  writer_append (run->writer, "closing log file at ", 20);
  writer_append_uint (run->writer,
                      (uint32_t) (run->timer_start_ms + last_us / 1000 - run->clock_back_ms), 6);
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */

static void
print_usage (FILE *stream)
{
  fprintf (stream,
           "Usage: gen-rtl-logfile (--size SIZE | --scopes N) [OPTION...] -o FILE\n"
           "\n"
           "Writes a constructed OpenOffice RTL profiling log (RTL_LOGFILE) of one process.\n"
           "\n"
           "  --size SIZE        stop before the file exceeds SIZE (1G, 500M, 100M, 64K;\n"
           "                     binary units)\n"
           "  --scopes N         write exactly N scope begins (\"{\" records), then close\n"
           "  --threads N        threads, the first one the main thread (default 8)\n"
           "  --max-depth N      deepest nesting of scopes, logical ones included\n"
           "                     (default 50)\n"
           "  --seed N           random seed (default 1); same seed, same file\n"
           "  --pid N            process id in the header (default 4711)\n"
           "  --faults           sprinkle the malformed cases of the spec: orphan ends,\n"
           "                     missing ends, NUL-truncated and interrupted records,\n"
           "                     CR LF lines, log-bridge calls, clock steps back\n"
           "  -o FILE            output file, \"-\" for standard output\n");
}

int
main (int    argc,
      char **argv)
{
  Options options = {
    .seed = 1,
    .n_threads = 8,
    .max_depth = 50,
    .pid = 4711,
  };
  Vocabulary vocabulary = { 0 };
  Writer writer;
  Run run = { 0 };
  uint64_t value;
  uint64_t n_faults = 0;
  gint64 started;
  double elapsed;
  gboolean ok;

  g_set_prgname ("gen-rtl-logfile");

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *next = i + 1 < argc ? argv[i + 1] : NULL;
      gboolean takes_value = TRUE;

      if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          print_usage (stdout);
          return 0;
        }
      else if (strcmp (arg, "--faults") == 0)
        {
          options.faults = TRUE;
          takes_value = FALSE;
        }
      else if (next == NULL)
        return usage_error ("missing value or unknown option", arg);
      else if (strcmp (arg, "-o") == 0 || strcmp (arg, "--output") == 0)
        options.output_path = next;
      else if (strcmp (arg, "--size") == 0)
        {
          if (!parse_size (next, &options.size_limit))
            return usage_error ("bad size", next);
        }
      else if (strcmp (arg, "--scopes") == 0)
        {
          if (!parse_uint (next, G_MAXUINT64, &options.scope_limit) || options.scope_limit == 0)
            return usage_error ("bad number of scopes", next);
        }
      else if (strcmp (arg, "--threads") == 0)
        {
          if (!parse_count (next, MAX_THREADS, &options.n_threads))
            return usage_error ("bad number of threads (1 to 1000)", next);
        }
      else if (strcmp (arg, "--max-depth") == 0)
        {
          if (!parse_count (next, MAX_MAX_DEPTH, &options.max_depth))
            return usage_error ("bad depth (1 to 1000)", next);
        }
      else if (strcmp (arg, "--seed") == 0)
        {
          if (!parse_uint (next, G_MAXUINT64, &options.seed))
            return usage_error ("bad seed", next);
        }
      else if (strcmp (arg, "--pid") == 0)
        {
          if (!parse_uint (next, G_MAXUINT32, &value))
            return usage_error ("bad process id", next);
          options.pid = (unsigned) value;
        }
      else
        return usage_error ("unknown option", arg);

      if (takes_value)
        i++;
    }

  if (options.output_path == NULL)
    return usage_error ("no output file (-o FILE)", NULL);
  if (options.size_limit == 0 && options.scope_limit == 0)
    return usage_error ("give --size or --scopes", NULL);

  if (!writer_open (&writer, options.output_path, "\n"))
    return 1;

  vocabulary_init (&vocabulary);
  run.options = &options;
  run.writer = &writer;
  run.vocabulary = &vocabulary;
  rng_init (&run.rng, options.seed);

  started = g_get_monotonic_time ();
  run_file (&run);
  ok = writer_close (&writer);
  elapsed = (double) (g_get_monotonic_time () - started) / 1e6;
  if (!ok)
    return 1;

  for (unsigned f = 0; f < N_FAULTS; f++)
    n_faults += run.faults[f];
  fprintf (stderr, "gen-rtl-logfile: %s: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
           " lines, %" G_GUINT64_FORMAT " scopes (+%" G_GUINT64_FORMAT " logical), %"
           G_GUINT64_FORMAT " messages, %u threads, depth %u, %.1f s\n",
           options.output_path, writer.written, writer.lines, run.scopes,
           run.logical_scopes, run.messages, options.n_threads, run.max_level, elapsed);
  if (options.faults)
    {
      fprintf (stderr, "gen-rtl-logfile: %" G_GUINT64_FORMAT " faults:", n_faults);
      for (unsigned f = 0; f < N_FAULTS; f++)
        fprintf (stderr, "%s %" G_GUINT64_FORMAT " %s", f == 0 ? "" : ",", run.faults[f], fault_names[f]);
      fprintf (stderr, "\n");
    }

  for (unsigned t = 0; t < options.n_threads; t++)
    g_free (run.threads[t].frames);
  g_free (run.threads);
  g_free (run.heap);
  vocabulary_clear (&vocabulary);
  return 0;
}
