/**
 * Drag to reorder (dnd-kit): a handle per row, pointer and keyboard (space to lift, arrows to move).
 * DndContext gets a stable id because its generated ids otherwise differ between server and browser.
 */
import { useCallback, useId, type CSSProperties, type ReactNode } from "react";
import { ActionIcon } from "@mantine/core";
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { useDndAccessibility, usePositionOf } from "../../../lib/dnd-a11y.js";
import { useT } from "../../../lib/i18n.js";
import { GripIcon } from "../icons.js";

export interface SortableListProps {
  ids: string[];
  /** What each row is called, in the order of `ids`: what a screen reader hears while one is dragged. */
  names: string[];
  onMove: (from: number, to: number) => void;
  children: ReactNode;
  className?: string;
}

export function SortableList({ ids, names, onMove, children, className }: SortableListProps) {
  const id = useId();
  const nameOf = useCallback((row: UniqueIdentifier) => names[ids.indexOf(String(row))] ?? "", [ids, names]);
  const accessibility = useDndAccessibility(nameOf, usePositionOf(ids));
  const sensors = useSensors(
    // A small distance keeps clicks in the row's inputs from starting a drag.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onMove(from, to);
  };
  return (
    <DndContext
      id={id}
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={accessibility}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className={className}>{children}</ol>
      </SortableContext>
    </DndContext>
  );
}

export interface SortableRowProps {
  id: string;
  /** The row as a person knows it ("ingredient 3 (2 cups flour)"), for its handle's name. */
  label: string;
  /** Receives the drag handle to place in the row. */
  children: (handle: ReactNode) => ReactNode;
  className?: string;
}

export function SortableRow({ id, label, children, className }: SortableRowProps) {
  const t = useT("recipe");
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  const style: CSSProperties = {
    transform: transform
      ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)`
      : undefined,
    transition,
    zIndex: isDragging ? 2 : undefined,
    position: "relative",
  };
  const handle = (
    <ActionIcon
      variant="subtle"
      color="gray"
      className="drag-handle"
      aria-label={t("edit.moveRow", { row: label })}
      title={t("edit.dragHandle")}
      {...attributes}
      {...listeners}
    >
      <GripIcon />
    </ActionIcon>
  );
  return (
    <li
      ref={setNodeRef}
      style={style}
      className={[className, isDragging ? "is-dragging" : ""].filter(Boolean).join(" ")}
      data-row-id={id}
    >
      {children(handle)}
    </li>
  );
}
