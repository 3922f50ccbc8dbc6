// The three.js stage the 3D games share: a canvas and its renderer, a z-up camera on orbit controls, the lights,
// sizing with its box, the render loop, and clicks told apart from the end of an orbit drag.

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { countFrame } from "./hooks";
import { awake, IDLE_MS, wake } from "./redraw";

export interface StageOptions {
  /** The classes of the box the canvas fills. */
  className: string;
  /** The camera's vertical field of view, in degrees. */
  fov: number;
  /** The directional light's position and intensity (the hemisphere light is the same for every game). */
  sun: { position: THREE.Vector3Tuple; intensity: number };
  /** How near and how far the orbit controls may zoom. */
  distance: [number, number];
}

export class Stage {
  /** The box the canvas fills: a game may lay more over the canvas in it (e.g. a banner). */
  readonly element = document.createElement("div");
  readonly renderer: THREE.WebGLRenderer;
  readonly canvas: HTMLCanvasElement;
  readonly scene = new THREE.Scene();
  readonly camera: THREE.PerspectiveCamera;
  readonly controls: OrbitControls;
  private readonly resizeObserver = new ResizeObserver(() => {
    this.resize();
    wake();
  });
  private drawnAt = -Infinity;
  private readonly raycaster = new THREE.Raycaster();

  constructor(options: StageOptions) {
    this.element.className = options.className;
    // preserveDrawingBuffer: the browser tests read the canvas's pixels to see that the scene drew
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.canvas = this.renderer.domElement;
    this.canvas.setAttribute("data-testid", "board");
    this.canvas.tabIndex = 0;
    // focusable, and the keys play when it has the focus: an application to a screen reader (which then passes the
    // keys through), named, instead of an unnamed canvas
    this.canvas.setAttribute("role", "application");
    this.canvas.setAttribute("aria-label", "the 3D board (the game's keys below it play; drag to turn the view)");
    this.element.append(this.canvas);
    this.scene.background = new THREE.Color("#eef1f5");
    this.camera = new THREE.PerspectiveCamera(options.fov, 1, 0.1, 200);
    this.camera.up.set(0, 0, 1); // the games' z is up
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, options.sun.intensity);
    sun.position.set(...options.sun.position);
    this.scene.add(sun);
    this.controls = new OrbitControls(this.camera, this.canvas);
    [this.controls.minDistance, this.controls.maxDistance] = options.distance;
  }

  /** Once the stage is on the page: follow its box's size and draw when something may have changed (see redraw.ts),
   * `beforeFrame` first at every display frame: it animates, and says whether an animation is running. */
  start(beforeFrame: () => boolean | void = () => false): void {
    this.resizeObserver.observe(this.element);
    wake();
    this.renderer.setAnimationLoop(() => {
      const now = performance.now();
      const animating = beforeFrame() === true;
      const moved = this.controls.update(); // the camera still gliding after a drag
      if (!animating && !moved && !awake(now) && now - this.drawnAt < IDLE_MS) return;
      this.drawnAt = now;
      this.renderer.render(this.scene, this.camera);
      countFrame();
    });
  }

  /** Put the camera at `from`, looking at `at`, the point the controls orbit about. */
  aim(from: THREE.Vector3Tuple, at: THREE.Vector3Tuple): void {
    this.camera.position.set(...from);
    this.controls.target.set(...at);
    this.controls.update();
  }

  /** Move the camera about the point it orbits: `change` edits that point and the camera's offset from it. */
  reframe(change: (target: THREE.Vector3, offset: THREE.Vector3) => void): void {
    const target = this.controls.target;
    const offset = this.camera.position.clone().sub(target);
    change(target, offset);
    this.camera.position.copy(target).add(offset);
    this.controls.update();
  }

  /** Turn the table an eighth of a turn (`direction` 1 or -1): the camera orbits about the vertical axis. */
  turnTable(direction: number): void {
    this.reframe((_target, offset) => offset.applyAxisAngle(new THREE.Vector3(0, 0, 1), (direction * Math.PI) / 4));
  }

  /** The buttons that turn the table (as Q and E do) and switch between the 3D view and the top view (`setTop`). */
  viewButtons(setTop: (top: boolean) => void): HTMLElement {
    const buttons = document.createElement("div");
    buttons.className = "view-buttons";
    buttons.innerHTML =
      '<button data-view="left" title="turn the table (Q)" aria-label="turn the table left (Q)">⟲</button>' +
      '<button data-view="right" title="turn the table (E)" aria-label="turn the table right (E)">⟳</button>' +
      '<button data-view="orbit">3D view</button><button data-view="top" data-testid="top-button">Top (T)</button>';
    buttons.addEventListener("click", (e) => {
      const view = (e.target as HTMLElement).getAttribute("data-view");
      if (view === "left" || view === "right") this.turnTable(view === "left" ? -1 : 1);
      else if (view) setTop(view === "top");
    });
    return buttons;
  }

  /** Call `handler` on a click of the canvas: one pointer pressed and released without going more than a few pixels
   * from where it was pressed, not an orbit drag (even one that comes back where it began) nor a two-finger pinch. */
  onClick(handler: (event: PointerEvent) => void): void {
    const pressed = new Set<number>();
    let down: [number, number] | null = null; // where the press that may still be a click began
    const away = (e: PointerEvent) => !down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) >= 5;
    this.canvas.addEventListener("pointerdown", (e) => {
      if (e.isPrimary) pressed.clear(); // the first finger of a new touch, or the mouse: no other pointer is down
      pressed.add(e.pointerId);
      down = pressed.size === 1 ? [e.clientX, e.clientY] : null;
    });
    this.canvas.addEventListener("pointermove", (e) => {
      if (pressed.has(e.pointerId) && away(e)) down = null;
    });
    this.canvas.addEventListener("pointerup", (e) => {
      pressed.delete(e.pointerId);
      if (!away(e)) handler(e);
      down = null;
    });
    this.canvas.addEventListener("pointercancel", (e) => {
      pressed.delete(e.pointerId);
      down = null;
    });
  }

  /** "Look here": a cone in `colour` pointing down at `position`, shown for `ms` milliseconds. */
  mark(position: THREE.Vector3, colour: THREE.ColorRepresentation, ms = 4000): void {
    const marker = new THREE.Mesh(new THREE.ConeGeometry(0.3, 0.8, 16), new THREE.MeshBasicMaterial({ color: colour }));
    marker.rotation.x = -Math.PI / 2; // the cone points down at the spot
    marker.position.copy(position);
    this.scene.add(marker);
    wake();
    window.setTimeout(() => {
      wake();
      this.scene.remove(marker);
      marker.geometry.dispose();
      (marker.material as THREE.Material).dispose();
    }, ms);
  }

  /** The cell "x,y" of the table (the plane z = 0) under a page position, or null off it. */
  cellAt(clientX: number, clientY: number): string | null {
    const point = new THREE.Vector3();
    if (!this.ray(clientX, clientY).ray.intersectPlane(new THREE.Plane(new THREE.Vector3(0, 0, 1), 0), point)) return null;
    return `${Math.floor(point.x)},${Math.floor(point.y)}`;
  }

  /** A ray from the camera through a page position (client pixels): what lies under the pointer. */
  ray(clientX: number, clientY: number): THREE.Raycaster {
    const rect = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera);
    return this.raycaster;
  }

  /** The page position (client pixels) of a point of the scene: for snapping to the pointer, the keys, and tests. */
  project(x: number, y: number, z: number): [number, number] {
    const v = new THREE.Vector3(x, y, z).project(this.camera);
    const rect = this.canvas.getBoundingClientRect();
    return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
  }

  private resize(): void {
    const w = Math.max(200, this.element.clientWidth);
    const h = Math.max(200, this.element.clientHeight);
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  dispose(): void {
    this.renderer.setAnimationLoop(null);
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
  }
}

/** Empty a group, freeing the geometries and materials its meshes and lines own (except the shared geometries in
 * ``keep``; textures are left to their owner). */
export function disposeGroup(group: THREE.Group, keep: ReadonlySet<THREE.BufferGeometry> = new Set()): void {
  group.traverse((o) => {
    if (!(o instanceof THREE.Mesh || o instanceof THREE.LineSegments)) return;
    if (!keep.has(o.geometry)) o.geometry.dispose();
    const materials = Array.isArray(o.material) ? o.material : [o.material];
    for (const m of materials) m.dispose();
  });
  group.clear();
}
